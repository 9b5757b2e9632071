import { jobDecider, JobProblems, type JobEvent, type CreateJob } from '../../../core/jobs/job.js';
import { deciderSpec } from './decider-spec.js';

const given = deciderSpec(jobDecider);
const T0 = '2026-01-01T00:00:00.000Z';
const at = (seconds: number) => new Date(Date.parse(T0) + seconds * 1000).toISOString();

const create: CreateJob = {
  type: 'CreateJob',
  job_id: 'job_1',
  account_id: 'acc_1',
  mode: 'live',
  key_id: 'key_1',
  config: { version: 1, sector: 'cards', tables: [{ name: 'transactions', rows: 10 }] },
  plan: { sector: 'cards', pack_version: '1.0.0', seed: 1, locale: 'en_GB', tables: [] },
  output: { format: 'csv', compression: 'none' },
  estimate: { credits: 1, tables: [{ name: 'transactions', rows: 10, credits: 1 }] },
  at: T0,
};
const { type: _type, at: _at, ...createdData } = create;
const created: JobEvent = { type: 'JobCreated', data: { ...createdData, created_at: T0 } };
const started = (instance: string, attempt: number, seconds: number): JobEvent => ({
  type: 'JobStarted',
  data: {
    job_id: 'job_1',
    instance_id: instance,
    attempt,
    started_at: at(seconds),
    lease_expires_at: at(seconds + 10),
  },
});
const file = {
  table: 'transactions',
  file: 'transactions.csv',
  format: 'csv',
  compression: 'none',
  rows: 10,
  bytes: 100,
  sha256: 'a'.repeat(64),
} as const;
const succeeded: JobEvent = {
  type: 'JobSucceeded',
  data: { job_id: 'job_1', instance_id: 'i1', files: [file], credits: 1, finished_at: at(5) },
};
const cancelRequested: JobEvent = { type: 'JobCancelRequested', data: { job_id: 'job_1', requested_at: at(2) } };

describe('job decider', () => {
  it('creates a queued job once', () => {
    given([]).when(create).then([created]);
    given([created]).when(create).thenThrows(JobProblems.alreadyExists);
  });

  it('a queued job is claimed with a lease; a held job is not claimed again', () => {
    given([created])
      .when({ type: 'ClaimJob', instanceId: 'i1', at: at(0), leaseMs: 10_000 })
      .then([started('i1', 1, 0)]);
    given([created, started('i1', 1, 0)])
      .when({ type: 'ClaimJob', instanceId: 'i2', at: at(9), leaseMs: 10_000 })
      .thenThrows(JobProblems.notClaimable);
  });

  it('a running job whose lease expired is taken over as the next attempt', () => {
    given([created, started('i1', 1, 0)])
      .when({ type: 'ClaimJob', instanceId: 'i2', at: at(10), leaseMs: 10_000 })
      .then([started('i2', 2, 10)]);
  });

  it('progress renews the lease, and only the holder reports it', () => {
    const tables = [{ name: 'transactions', rows_done: 4, rows_total: 10 }];
    given([created, started('i1', 1, 0)])
      .when({ type: 'RecordProgress', instanceId: 'i1', tables, at: at(1), leaseMs: 10_000 })
      .then([
        {
          type: 'JobProgressed',
          data: { job_id: 'job_1', instance_id: 'i1', tables, at: at(1), lease_expires_at: at(11) },
        },
      ]);
    given([created, started('i1', 1, 0), started('i2', 2, 10)])
      .when({ type: 'RecordProgress', instanceId: 'i1', tables, at: at(11), leaseMs: 10_000 })
      .thenThrows(JobProblems.leaseLost);
  });

  it('a renewed lease is not taken over', () => {
    const progressed: JobEvent = {
      type: 'JobProgressed',
      data: { job_id: 'job_1', instance_id: 'i1', tables: [], at: at(8), lease_expires_at: at(18) },
    };
    given([created, started('i1', 1, 0), progressed])
      .when({ type: 'ClaimJob', instanceId: 'i2', at: at(12), leaseMs: 10_000 })
      .thenThrows(JobProblems.notClaimable);
  });

  it('the holder completes the job with its files', () => {
    given([created, started('i1', 1, 0)])
      .when({ type: 'CompleteJob', instanceId: 'i1', files: [file], credits: 1, at: at(5) })
      .then([succeeded]);
    given([created, started('i1', 1, 0), started('i2', 2, 10)])
      .when({ type: 'CompleteJob', instanceId: 'i1', files: [file], credits: 1, at: at(11) })
      .thenThrows(JobProblems.leaseLost);
  });

  it('the holder fails the job with a problem', () => {
    const stored = { slug: 'job-write-failed', title: 'Internal Server Error', status: 500, detail: 'ENOSPC' };
    given([created, started('i1', 1, 0)])
      .when({ type: 'FailJob', instanceId: 'i1', problem: stored, at: at(3) })
      .then([{ type: 'JobFailed', data: { job_id: 'job_1', problem: stored, failed_at: at(3) } }]);
  });

  it('cancelling a queued job cancels it at once', () => {
    given([created])
      .when({ type: 'RequestCancel', at: at(1) })
      .then([{ type: 'JobCancelled', data: { job_id: 'job_1', cancelled_at: at(1) } }]);
  });

  it('cancelling a running job asks its runner to stop, once; the runner confirms', () => {
    given([created, started('i1', 1, 0)])
      .when({ type: 'RequestCancel', at: at(2) })
      .then([cancelRequested]);
    given([created, started('i1', 1, 0), cancelRequested])
      .when({ type: 'RequestCancel', at: at(3) })
      .then([]);
    given([created, started('i1', 1, 0), cancelRequested])
      .when({ type: 'ConfirmCancel', instanceId: 'i1', at: at(3) })
      .then([{ type: 'JobCancelled', data: { job_id: 'job_1', cancelled_at: at(3) } }]);
  });

  it('a cancel pending on a dead runner is confirmed by another once the lease expired, never claimed', () => {
    given([created, started('i1', 1, 0), cancelRequested])
      .when({ type: 'ConfirmCancel', instanceId: 'i2', at: at(5) })
      .thenThrows(JobProblems.leaseLost);
    given([created, started('i1', 1, 0), cancelRequested])
      .when({ type: 'ConfirmCancel', instanceId: 'i2', at: at(10) })
      .then([{ type: 'JobCancelled', data: { job_id: 'job_1', cancelled_at: at(10) } }]);
    given([created, started('i1', 1, 0), cancelRequested])
      .when({ type: 'ClaimJob', instanceId: 'i2', at: at(10), leaseMs: 10_000 })
      .thenThrows(JobProblems.notClaimable);
  });

  it('completion wins over a cancel requested while the job was being settled', () => {
    given([created, started('i1', 1, 0), cancelRequested])
      .when({ type: 'CompleteJob', instanceId: 'i1', files: [file], credits: 1, at: at(5) })
      .then([{ ...succeeded }]);
  });

  it('cancelling a finished job is a conflict', () => {
    given([created, started('i1', 1, 0), succeeded])
      .when({ type: 'RequestCancel', at: at(6) })
      .thenThrows(JobProblems.finished);
  });

  it('results of a succeeded job expire once', () => {
    const expired: JobEvent = { type: 'JobResultsExpired', data: { job_id: 'job_1', expired_at: at(100) } };
    given([created, started('i1', 1, 0), succeeded])
      .when({ type: 'ExpireResults', at: at(100) })
      .then([expired]);
    given([created, started('i1', 1, 0), succeeded, expired])
      .when({ type: 'ExpireResults', at: at(101) })
      .then([]);
    given([created])
      .when({ type: 'ExpireResults', at: at(100) })
      .then([]);
  });

  it('commands on a job that does not exist are refused', () => {
    given([]).when({ type: 'RequestCancel', at: T0 }).thenThrows(JobProblems.notFound);
  });
});
