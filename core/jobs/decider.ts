import { problem } from '../problems.js';
import type { Decider } from '../commands/decider.js';
import type { JobCreated, JobEvent, ReportFile, ResultFile, StoredProblem, TableProgress } from './events.js';
import { JobProblems } from './problems.js';
import { evolveJob, initialJobState, isFinished, leaseExpired, type JobState } from './state.js';

/**
 * Commands carry their time (`at`) and lease length: the decider stays pure, and the runner's clock
 * decides when a lease runs out. Commands a runner sends name its instance; only the lease holder
 * may report progress or finish the job.
 */
export type CreateJob = { type: 'CreateJob' } & Omit<JobCreated['data'], 'created_at'> & { at: string };
export type ClaimJob = { type: 'ClaimJob'; instanceId: string; at: string; leaseMs: number };
export type RecordProgress = {
  type: 'RecordProgress';
  instanceId: string;
  tables: TableProgress[];
  at: string;
  leaseMs: number;
};
export type CompleteJob = {
  type: 'CompleteJob';
  instanceId: string;
  files: ResultFile[];
  credits: number;
  at: string;
  report?: ReportFile;
};
export type FailJob = { type: 'FailJob'; instanceId: string; problem: StoredProblem; at: string };
export type RequestCancel = { type: 'RequestCancel'; at: string };
/** The holder confirms that it stopped; anyone may confirm once the holder's lease has expired. */
export type ConfirmCancel = { type: 'ConfirmCancel'; instanceId: string; at: string };
export type ExpireResults = { type: 'ExpireResults'; at: string };

export type JobCommand =
  CreateJob | ClaimJob | RecordProgress | CompleteJob | FailJob | RequestCancel | ConfirmCancel | ExpireResults;

export const jobStream = (jobId: string): string => `job-${jobId}`;

const plus = (at: string, ms: number): string => new Date(Date.parse(at) + ms).toISOString();

function requireExisting(
  state: JobState,
  jobId: string | undefined,
): asserts state is JobState & { created: JobCreated['data'] } {
  if (state.status === null || state.created === null)
    throw problem(JobProblems.notFound, `job ${jobId ?? ''} does not exist`.trim());
}

function requireHolder(state: JobState, instanceId: string): void {
  if (state.status !== 'running' || state.lease?.instanceId !== instanceId) {
    throw problem(JobProblems.leaseLost, `runner ${instanceId} does not hold job ${state.created?.job_id}`);
  }
}

function decide(command: JobCommand, state: JobState): JobEvent[] {
  if (command.type === 'CreateJob') {
    if (state.status !== null) throw problem(JobProblems.alreadyExists, `job ${command.job_id} already exists`);
    const { type: _type, at, ...data } = command;
    return [{ type: 'JobCreated', data: { ...data, created_at: at } }];
  }
  requireExisting(state, undefined);
  const job_id = state.created.job_id;
  switch (command.type) {
    case 'ClaimJob': {
      const orphaned = state.status === 'running' && leaseExpired(state, command.at);
      if (state.cancelRequested || !(state.status === 'queued' || orphaned)) {
        throw problem(
          JobProblems.notClaimable,
          `job ${job_id} is ${state.status}${state.cancelRequested ? ', cancel requested' : ''}`,
        );
      }
      const attempt = (state.lease?.attempt ?? 0) + 1;
      const lease_expires_at = plus(command.at, command.leaseMs);
      return [
        {
          type: 'JobStarted',
          data: { job_id, instance_id: command.instanceId, attempt, started_at: command.at, lease_expires_at },
        },
      ];
    }
    case 'RecordProgress':
      requireHolder(state, command.instanceId);
      return [
        {
          type: 'JobProgressed',
          data: {
            job_id,
            instance_id: command.instanceId,
            tables: command.tables,
            at: command.at,
            lease_expires_at: plus(command.at, command.leaseMs),
          },
        },
      ];
    case 'CompleteJob':
      // Completion wins over a cancel requested while the last table was being settled: the holder
      // has already charged for the files, so they are delivered rather than thrown away.
      requireHolder(state, command.instanceId);
      return [
        {
          type: 'JobSucceeded',
          data: {
            job_id,
            instance_id: command.instanceId,
            files: command.files,
            credits: command.credits,
            finished_at: command.at,
            ...(command.report ? { report: command.report } : {}),
          },
        },
      ];
    case 'FailJob':
      requireHolder(state, command.instanceId);
      return [{ type: 'JobFailed', data: { job_id, problem: command.problem, failed_at: command.at } }];
    case 'RequestCancel':
      if (isFinished(state.status))
        throw problem(
          JobProblems.finished,
          `job ${job_id} has already ${state.status === 'cancelled' ? 'been cancelled' : state.status}`,
        );
      if (state.status === 'queued') return [{ type: 'JobCancelled', data: { job_id, cancelled_at: command.at } }];
      return state.cancelRequested ? [] : [{ type: 'JobCancelRequested', data: { job_id, requested_at: command.at } }];
    case 'ConfirmCancel':
      if (state.status !== 'running' || !state.cancelRequested) return [];
      if (state.lease?.instanceId !== command.instanceId && !leaseExpired(state, command.at))
        requireHolder(state, command.instanceId);
      return [{ type: 'JobCancelled', data: { job_id, cancelled_at: command.at } }];
    case 'ExpireResults':
      if (state.status !== 'succeeded' || state.resultsExpired) return [];
      return [{ type: 'JobResultsExpired', data: { job_id, expired_at: command.at } }];
  }
}

export const jobDecider: Decider<JobState, JobCommand, JobEvent> = {
  initialState: initialJobState,
  decide,
  evolve: evolveJob,
};
