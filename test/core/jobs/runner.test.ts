import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, symlinkSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { TestClock, systemClock } from '../../../core/clock.js';
import { accountStream } from '../../../core/accounts/account.js';
import { jobDecider, jobStream } from '../../../core/jobs/job.js';
import { jobDirectory, partFileName } from '../../../core/jobs/result-files.js';
import { MemoryEventStore } from '../../../core/store/memory-store.js';
import {
  openAccount,
  queueJob,
  stallingGenerator,
  startInstance,
  tempDir,
  until,
  type JobsInstance,
} from './support/instance.js';
import type { Engine } from '../../../core/packs/engine.js';
import { sharedEngine } from './support/engine.js';
import { buildPlan } from '../../../core/generation/plan.js';

const T0 = '2026-01-01T00:00:00.000Z';
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** The bytes of an uninterrupted run of the table: the pool's chunks, concatenated. */
async function expectedBytes(engine: Engine, rows: number): Promise<Buffer> {
  const plan = buildPlan(engine.packs, { sector: 'cards', seed: 7, tables: [{ name: 'transactions', rows }] });
  return engine.pool.bytes(plan, 'transactions', { format: 'csv' });
}

describe('job runner', function () {
  // Bounds, not assertions: the pool's workers start slowly on a loaded machine.
  this.timeout(120_000);
  const running: JobsInstance[] = [];
  const directories: string[] = [];
  let engine: Engine;
  before(async () => {
    engine = await sharedEngine();
  });
  afterEach(async () => {
    try {
      await Promise.all(running.splice(0).map((instance) => instance.stop()));
    } finally {
      for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
    }
  });

  /** A results directory of the test's own, removed after it whether it passed or not. */
  function resultsDirectory(prefix: string): string {
    const directory = tempDir(prefix);
    directories.push(directory);
    return directory;
  }

  async function instance(options: Parameters<typeof startInstance>[0]): Promise<JobsInstance> {
    const started = await startInstance(options);
    running.push(started);
    started.runner.start();
    return started;
  }

  it('runs a queued job: every table written, hashed, settled, succeeded', async () => {
    const resultsDir = resultsDirectory('runner');
    const a = await instance({ store: new MemoryEventStore(), engine, clock: systemClock, resultsDir });
    await openAccount(a, 'acc_1', 1000, T0);
    await queueJob(a, {
      jobId: 'job_1',
      accountId: 'acc_1',
      rows: { transactions: 5000, cards: 1500 },
      compression: 'gzip',
      at: T0,
    });
    await until(a, (jobs) => jobs.jobs.job_1.state === 'succeeded');

    const job = a.jobs().jobs.job_1;
    expect(job.files.map((file) => [file.table, file.file, file.rows])).to.deep.equal([
      ['transactions', 'transactions.csv.gz', 5000],
      ['cards', 'cards.csv.gz', 1500],
    ]);
    for (const file of job.files) {
      const bytes = readFileSync(join(jobDirectory(resultsDir, 'job_1'), file.file));
      expect(file.bytes).to.equal(bytes.length);
      expect(file.sha256).to.equal(sha256(bytes));
      expect(gunzipSync(bytes).toString().trimEnd().split('\n')).to.have.length(file.rows + 1);
    }
    expect(readdirSync(jobDirectory(resultsDir, 'job_1')).some((name) => name.endsWith('.part'))).to.equal(false);
    expect(job.credits_charged).to.equal(7);
    expect(await a.credits.balance('acc_1')).to.deep.equal({ credits_available: 993, credits_reserved: 0 });
  });

  it('a job whose runner died is taken over after its lease and gives the same bytes, charged once', async () => {
    const store = new MemoryEventStore();
    const clock = new TestClock(T0);
    const resultsDir = resultsDirectory('takeover');
    const a = await instance({
      store,
      engine,
      clock,
      resultsDir,
      instanceId: 'a',
      leaseMs: 10_000,
      generate: stallingGenerator(engine),
    });
    await openAccount(a, 'acc_1', 1000, T0);
    await queueJob(a, { jobId: 'job_1', accountId: 'acc_1', rows: { transactions: 50_000 }, at: T0 });
    await until(a, (jobs) => jobs.jobs.job_1.state === 'running');
    await a.runner.stop(); // dies without a word: its lease stays until it expires

    const b = await instance({ store, engine, clock, resultsDir, instanceId: 'b', leaseMs: 10_000 });
    clock.advance({ ms: 5_000 });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(b.jobs().jobs.job_1).to.include({ state: 'running', instance_id: 'a' });
    clock.advance({ ms: 5_000 });
    await until(b, (jobs) => jobs.jobs.job_1.state === 'succeeded');

    const job = b.jobs().jobs.job_1;
    expect(job).to.include({ attempt: 2, instance_id: 'b' });
    const bytes = readFileSync(join(jobDirectory(resultsDir, 'job_1'), 'transactions.csv'));
    expect(sha256(bytes)).to.equal(sha256(await expectedBytes(engine, 50_000)));
    expect(job.files[0].sha256).to.equal(sha256(bytes));
    const settlements = (await store.readStream(accountStream('acc_1'))).filter(
      (event) => event.type === 'CreditsSettled',
    );
    expect(settlements).to.have.length(1);
    expect(await b.credits.balance('acc_1')).to.deep.equal({ credits_available: 950, credits_reserved: 0 });
  });

  it('a graceful shutdown hands its jobs over at once, without waiting for the lease', async () => {
    const store = new MemoryEventStore();
    const clock = new TestClock(T0); // stands still: no lease can expire by itself
    const resultsDir = resultsDirectory('hand-over');
    const a = await instance({
      store,
      engine,
      clock,
      resultsDir,
      instanceId: 'a',
      leaseMs: 60_000,
      generate: stallingGenerator(engine),
    });
    await openAccount(a, 'acc_1', 1000, T0);
    await queueJob(a, { jobId: 'job_1', accountId: 'acc_1', rows: { transactions: 50_000 }, at: T0 });
    await until(a, (jobs) => jobs.jobs.job_1.state === 'running');
    await a.runner.stop({ handOver: true });

    const b = await instance({ store, engine, clock, resultsDir, instanceId: 'b', leaseMs: 60_000 });
    await until(b, (jobs) => jobs.jobs.job_1.state === 'succeeded');
    expect(b.jobs().jobs.job_1).to.include({ attempt: 2, instance_id: 'b' });
  });

  it('a cancelled running job stops, leaves no file and releases its credits', async () => {
    const resultsDir = resultsDirectory('cancel');
    const a = await instance({
      store: new MemoryEventStore(),
      engine,
      clock: systemClock,
      resultsDir,
      generate: stallingGenerator(engine),
    });
    await openAccount(a, 'acc_1', 2000, T0);
    await queueJob(a, { jobId: 'job_1', accountId: 'acc_1', rows: { transactions: 1_000_000 }, at: T0 });
    await until(a, (jobs) => jobs.jobs.job_1.state === 'running');
    expect((await a.credits.balance('acc_1')).credits_reserved).to.equal(1000);

    await a.commands.handle(jobDecider, jobStream('job_1'), { type: 'RequestCancel', at: new Date().toISOString() });
    await until(a, (jobs) => jobs.jobs.job_1.state === 'cancelled');
    await until(a, () => !existsSync(jobDirectory(resultsDir, 'job_1')));
    expect(await a.credits.balance('acc_1')).to.deep.equal({ credits_available: 2000, credits_reserved: 0 });
    // The attempt ends once its files are removed, and the runner lets go of the job just after.
    await until(a, () => a.runner.running().length === 0, 5_000);
  });

  for (const compression of ['none', 'gzip'] as const) {
    it(`a full disk fails the job cleanly (compression ${compression}): a problem that says so, no partial file, credits released`, async () => {
      const store = new MemoryEventStore();
      const resultsDir = resultsDirectory('disk-full');
      const a = await startInstance({ store, engine, clock: systemClock, resultsDir });
      running.push(a);
      await openAccount(a, 'acc_1', 1000, T0);
      await queueJob(a, { jobId: 'job_1', accountId: 'acc_1', rows: { transactions: 5000 }, compression, at: T0 });
      // The first attempt's part file is /dev/full: every write to it fails with ENOSPC, as on a full volume.
      mkdirSync(jobDirectory(resultsDir, 'job_1'), { recursive: true });
      symlinkSync(
        '/dev/full',
        join(jobDirectory(resultsDir, 'job_1'), partFileName('transactions', 'csv', compression, 1)),
      );
      a.runner.start();
      await until(a, (jobs) => jobs.jobs.job_1.state === 'failed');
      // The attempt ends the job first (the holder check), then releases its credits and removes its files.
      await until(a, () => !existsSync(jobDirectory(resultsDir, 'job_1')));

      expect(a.jobs().jobs.job_1.failure).to.include({ slug: 'job-write-failed', status: 500 });
      expect(a.jobs().jobs.job_1.failure!.detail).to.match(/full/);
      expect(existsSync(jobDirectory(resultsDir, 'job_1'))).to.equal(false);
      expect(await a.credits.balance('acc_1')).to.deep.equal({ credits_available: 1000, credits_reserved: 0 });
    });
  }

  it('results are removed with an event once kept for the retention time', async () => {
    const clock = new TestClock(T0);
    const resultsDir = resultsDirectory('expiry');
    const a = await instance({ store: new MemoryEventStore(), engine, clock, resultsDir, retentionMs: 3_600_000 });
    await openAccount(a, 'acc_1', 1000, T0);
    await queueJob(a, { jobId: 'job_1', accountId: 'acc_1', rows: { transactions: 100 }, at: T0 });
    await until(a, (jobs) => jobs.jobs.job_1.state === 'succeeded');
    expect(existsSync(jobDirectory(resultsDir, 'job_1'))).to.equal(true);

    clock.advance({ hours: 1, minutes: 1 });
    await until(a, (jobs) => jobs.jobs.job_1.results_expired_at !== null);
    expect(existsSync(jobDirectory(resultsDir, 'job_1'))).to.equal(false);
    const { state } = await a.commands.load(jobDecider, jobStream('job_1'));
    expect(state).to.include({ status: 'succeeded', resultsExpired: true });
  });
});
