import { expect } from 'chai';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { systemClock } from '../../../core/clock.js';
import { JobProblems, type JobState } from '../../../core/jobs/job.js';
import { problem } from '../../../core/problems.js';
import { runJob, type JobContext } from '../../../core/jobs/run-job.js';

/**
 * One attempt of a job against fakes of its ports, to drive the failures between its steps that a whole
 * service cannot be made to hit on cue: the store failing after the settle, a lease taken over while
 * the attempt still runs, a shutdown that began during the claim.
 */
describe('an attempt of a job, between its steps', () => {
  let resultsDir: string;
  let calls: string[];
  let holder: string;
  let errors: unknown[];

  beforeEach(async () => {
    resultsDir = await mkdtemp(join(tmpdir(), 'finsynth-run-job-'));
    calls = [];
    holder = 'A';
    errors = [];
  });
  afterEach(() => rm(resultsDir, { recursive: true, force: true }));

  const claimed = () =>
    ({
      status: 'running',
      cancelRequested: false,
      lease: { instanceId: holder, attempt: holder === 'A' ? 1 : 2, expiresAt: '2999-01-01T00:00:00.000Z' },
      created: {
        job_id: 'job_1',
        account_id: 'acc_1',
        output: { format: 'csv', compression: 'none' },
        estimate: { credits: 5, tables: [{ name: 't', rows: 1, credits: 5 }] },
        plan: {},
      },
      progress: [],
    }) as unknown as JobState;

  /**
   * `completeFails`: how many tries of CompleteJob the store fails (with a connection error); `storedAnyway`:
   * the failed try was stored all the same (the answer was lost), so the job no longer runs under A.
   */
  function context(generate: JobContext['generate'], { completeFails = 0, storedAnyway = false } = {}): JobContext {
    return {
      instanceId: 'A',
      // Short, so that the retries of the last event (spread over a fraction of the lease) take milliseconds.
      leaseMs: 300,
      pollMs: 5_000,
      clock: systemClock,
      resultsDir,
      onError: (error) => errors.push(error),
      credits: {
        checkReservable: async () => undefined,
        reserve: async () => ({ position: 0, credits_available: 0, credits_reserved: 0 }),
        settle: async () => (calls.push('settle'), { position: 0, credits_available: 0, credits_reserved: 0 }),
        release: async (_account: string, _job: string, why: string) => (
          calls.push(`release: ${why}`),
          { position: 0, credits_available: 0, credits_reserved: 0 }
        ),
      },
      commands: {
        load: async () => ({ state: claimed(), revision: 0n }),
        handle: async (_decider: unknown, _stream: string, command: { type: string; instanceId?: string }) => {
          calls.push(command.type);
          if (command.instanceId !== undefined && command.instanceId !== holder)
            throw problem(JobProblems.leaseLost, 'another instance holds the job');
          if (command.type === 'CompleteJob' && completeFails-- > 0) {
            if (storedAnyway) holder = 'nobody: succeeded';
            throw new Error('ECONNRESET');
          }
          return { events: [{}], state: claimed(), position: 1 };
        },
      } as unknown as JobContext['commands'],
      generate,
    };
  }
  const file = (name: string) => join(resultsDir, 'job_1', name);

  const oneRow: JobContext['generate'] = async function* () {
    yield Buffer.from('value\r\n1\r\n');
  };

  it('a store blip after the settle: the last event is tried again, and the job completes in place', async () => {
    await runJob(context(oneRow, { completeFails: 2 }), claimed(), new AbortController().signal, () => false);
    expect(calls).to.deep.equal(['settle', 'CompleteJob', 'CompleteJob', 'CompleteJob']);
    expect(errors).to.deep.equal([]);
    expect(existsSync(file('t.csv'))).to.equal(true);
  });

  it('a try stored although its answer was lost: the next one is refused as not running, and that ends the attempt quietly', async () => {
    await runJob(
      context(oneRow, { completeFails: 1, storedAnyway: true }),
      claimed(),
      new AbortController().signal,
      () => false,
    );
    expect(calls).to.deep.equal(['settle', 'CompleteJob', 'CompleteJob']);
    expect(errors).to.deep.equal([]);
    expect(existsSync(file('t.csv'))).to.equal(true);
  });

  it('charged and written, but not recorded as complete after every try: nothing is failed, released or removed; the takeover completes it', async () => {
    await runJob(context(oneRow, { completeFails: Infinity }), claimed(), new AbortController().signal, () => false);
    expect(calls).to.deep.equal(['settle', 'CompleteJob', 'CompleteJob', 'CompleteJob', 'CompleteJob']);
    expect(existsSync(file('t.csv'))).to.equal(true);
    expect(errors.map((error) => (error as Error).message)).to.deep.equal(['ECONNRESET']);
  });

  it('taken over while it still runs, it fails nothing of the attempt that holds the job now: no release, no file removed', async () => {
    const failsAfterTakeover: JobContext['generate'] = async function* () {
      yield Buffer.from('value\r\n1\r\n');
      holder = 'B';
      mkdirSync(join(resultsDir, 'job_1'), { recursive: true });
      writeFileSync(file('t.csv'), 'written by B');
      throw new Error('worker crashed');
    };
    await runJob(context(failsAfterTakeover), claimed(), new AbortController().signal, () => false);
    expect(calls, 'refused at once by the holder check').to.deep.equal(['FailJob']);
    expect(existsSync(file('t.csv'))).to.equal(true);
  });

  it('claimed while the service began to stop, it stops at once instead of running to its end', async () => {
    let chunks = 0;
    const long: JobContext['generate'] = async function* (_plan, _table, { signal }) {
      for (let i = 0; i < 50; i++) {
        signal.throwIfAborted();
        chunks++;
        yield Buffer.from('1\r\n');
      }
    };
    const stopping = new AbortController();
    stopping.abort();
    await runJob(context(long), claimed(), stopping.signal, () => false);
    expect(chunks).to.be.lessThan(50);
    expect(calls.filter((call) => call !== 'RecordProgress')).to.deep.equal([]);
  });
});
