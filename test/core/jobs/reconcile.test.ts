import { jobsReadModel } from '../../../projections/jobs/jobs-queries.js';
import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { TestClock, systemClock } from '../../../core/clock.js';
import { accountStream } from '../../../core/accounts/account.js';
import { jobDecider, jobStream } from '../../../core/jobs/job.js';
import { ORPHANED_RESERVATION_MS, ReservationReconciler } from '../../../core/jobs/reconcile-reservations.js';
import { jobDirectory } from '../../../core/jobs/result-files.js';
import { MemoryEventStore } from '../../../core/store/memory-store.js';
import { sharedEngine } from './support/engine.js';
import { openAccount, queueJob, startInstance, tempDir, until, type JobsInstance } from './support/instance.js';

const T0 = '2026-01-01T00:00:00.000Z';
const file = {
  table: 'transactions',
  file: 'transactions.csv',
  format: 'csv',
  compression: 'none',
  rows: 5000,
  bytes: 100,
  sha256: 'a'.repeat(64),
} as const;

/**
 * An instance that dies between a job's last event and the credit command leaves the reservation held:
 * its credits, and its concurrent-job slot. Each test appends the job's last event without the credit
 * command (the crash), then shows the runners closing the reservation, once.
 */
describe('reservations a crash left held', function () {
  this.timeout(30_000);
  const running: JobsInstance[] = [];
  afterEach(async () => {
    await Promise.all(running.splice(0).map((instance) => instance.stop()));
  });

  let resultsDir = '';
  after(() => rm(resultsDir, { recursive: true, force: true }));

  /**
   * Two instances on one store with an account of 1,000 credits and job_1 queued (5 credits reserved);
   * runners not started.
   */
  async function fleet(clock = systemClock): Promise<[JobsInstance, JobsInstance]> {
    const store = new MemoryEventStore();
    const engine = await sharedEngine();
    await rm(resultsDir, { recursive: true, force: true });
    resultsDir = tempDir('reconcile');
    const a = await startInstance({ store, engine, clock, resultsDir, instanceId: 'a' });
    const b = await startInstance({ store, engine, clock, resultsDir, instanceId: 'b' });
    running.push(a, b);
    await openAccount(a, 'acc_1', 1000, T0);
    await queueJob(a, { jobId: 'job_1', accountId: 'acc_1', rows: { transactions: 5000 }, at: T0 });
    return [a, b];
  }

  async function creditEvents(instance: JobsInstance, type: string) {
    return (await instance.store.readStream(accountStream('acc_1'))).filter((event) => event.type === type);
  }

  /** Starts both runners and waits until nothing is reserved any more. */
  async function reconciled(instances: JobsInstance[]): Promise<void> {
    for (const instance of instances) instance.runner.start();
    await until(instances[0], (jobs) => Object.keys(jobs.heldReservations).length === 0);
  }

  it('a queued job cancelled without its release: released once, though both runners see it', async () => {
    const [a, b] = await fleet();
    await a.commands.handle(jobDecider, jobStream('job_1'), { type: 'RequestCancel', at: T0 });
    expect(await a.credits.balance('acc_1')).to.deep.equal({ credits_available: 995, credits_reserved: 5 });

    await reconciled([a, b]);
    expect(await a.credits.balance('acc_1')).to.deep.equal({ credits_available: 1000, credits_reserved: 0 });
    const released = await creditEvents(a, 'CreditsReleased');
    expect(released.map((event) => event.data)).to.deep.equal([
      { reference: 'job_1', mode: 'live', credits: 5, reason: 'job cancelled' },
    ]);
  });

  it('a failed job whose runner died before releasing: released, and the part files it left removed', async () => {
    const [a, b] = await fleet();
    await a.commands.handle(jobDecider, jobStream('job_1'), {
      type: 'ClaimJob',
      instanceId: 'ghost',
      at: T0,
      leaseMs: 10_000,
    });
    await mkdir(jobDirectory(resultsDir, 'job_1'), { recursive: true });
    await writeFile(join(jobDirectory(resultsDir, 'job_1'), 'transactions.csv.1.part'), 'id\n');
    const problem = {
      slug: 'job-generation-failed',
      title: 'Internal Server Error',
      status: 500,
      detail: 'the generator failed',
    };
    await a.commands.handle(jobDecider, jobStream('job_1'), { type: 'FailJob', instanceId: 'ghost', problem, at: T0 });

    await reconciled([a, b]);
    expect(await a.credits.balance('acc_1')).to.deep.equal({ credits_available: 1000, credits_reserved: 0 });
    expect(
      (await creditEvents(a, 'CreditsReleased')).map((event) => (event.data as { reason: string }).reason),
    ).to.deep.equal(['job failed']);
    // The runner that released removes the directory after: its poll has ended once the runners stop.
    await Promise.all([a.runner.stop(), b.runner.stop()]);
    expect(existsSync(jobDirectory(resultsDir, 'job_1'))).to.equal(false);
  });

  it('a succeeded job whose settlement was never appended: settled for what it produced, once', async () => {
    const [a, b] = await fleet();
    await a.commands.handle(jobDecider, jobStream('job_1'), {
      type: 'ClaimJob',
      instanceId: 'ghost',
      at: T0,
      leaseMs: 10_000,
    });
    await a.commands.handle(jobDecider, jobStream('job_1'), {
      type: 'CompleteJob',
      instanceId: 'ghost',
      files: [file],
      credits: 5,
      at: T0,
    });

    await reconciled([a, b]);
    expect(await a.credits.balance('acc_1')).to.deep.equal({ credits_available: 995, credits_reserved: 0 });
    const settled = await creditEvents(a, 'CreditsSettled');
    expect(settled.map((event) => event.data)).to.deep.equal([
      {
        reference: 'job_1',
        mode: 'live',
        tables: [{ name: 'transactions', rows: 5000, credits: 5 }],
        credits: 5,
        released: 0,
      },
    ]);
    expect(await creditEvents(a, 'CreditsReleased')).to.deep.equal([]);
  });

  it('a job still queued or running keeps its reservation', async () => {
    const [a] = await fleet();
    const reconciler = new ReservationReconciler({
      credits: a.credits,
      clock: new TestClock(T0),
      resultsDir,
      onError: (error) => {
        throw error;
      },
    });
    await a.projections.waitForHead();
    await reconciler.reconcile(jobsReadModel(a.jobs()));
    await a.commands.handle(jobDecider, jobStream('job_1'), {
      type: 'ClaimJob',
      instanceId: 'ghost',
      at: T0,
      leaseMs: 60_000,
    });
    await a.projections.waitForHead();
    await reconciler.reconcile(jobsReadModel(a.jobs()));
    expect(await a.credits.balance('acc_1')).to.deep.equal({ credits_available: 995, credits_reserved: 5 });
    expect(await creditEvents(a, 'CreditsReleased')).to.deep.equal([]);
  });

  it('a reservation whose job was never created is released once it has waited for it long enough', async () => {
    const clock = new TestClock(T0);
    const [a] = await fleet(clock);
    const reservation = {
      accountId: 'acc_1',
      mode: 'live' as const,
      keyId: 'key_1',
      sector: 'cards',
      tables: [],
      credits: 7,
    };
    await a.credits.reserve({ ...reservation, reference: 'job_orphan' });
    await a.credits.reserve({ ...reservation, reference: 'job_slow' });
    await a.projections.waitForHead();
    const reconciler = new ReservationReconciler({
      credits: a.credits,
      clock,
      resultsDir,
      onError: (error) => {
        throw error;
      },
    });
    await reconciler.reconcile(jobsReadModel(a.jobs()));

    clock.advance({ ms: ORPHANED_RESERVATION_MS - 1 });
    await reconciler.reconcile(jobsReadModel(a.jobs()));
    expect((await a.credits.balance('acc_1')).credits_reserved).to.equal(5 + 7 + 7);

    // The slow creation lands within the wait: its reservation is its job's again.
    await queueJob(a, { jobId: 'job_slow', accountId: 'acc_1', rows: { transactions: 7000 }, at: T0 });
    await a.projections.waitForHead();
    clock.advance({ ms: 1 });
    await reconciler.reconcile(jobsReadModel(a.jobs()));
    expect(await a.credits.balance('acc_1')).to.deep.equal({
      credits_available: 1000 - 5 - 7,
      credits_reserved: 5 + 7,
    });
    const released = await creditEvents(a, 'CreditsReleased');
    expect(released.map((event) => event.data)).to.deep.equal([
      { reference: 'job_orphan', mode: 'live', credits: 7, reason: 'the job was never created' },
    ]);
  });
});
