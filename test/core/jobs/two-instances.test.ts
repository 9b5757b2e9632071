import { expect } from 'chai';
import { rmSync } from 'node:fs';
import { systemClock } from '../../../core/clock.js';
import { loadConfig } from '../../../core/settings/settings.js';
import { accountStream } from '../../../core/accounts/account.js';
import { jobStream } from '../../../core/jobs/job.js';
import type { EventStore } from '../../../core/store/event-store.js';
import { openEventStore } from '../../../core/store/open-store.js';
import { ProblemError } from '../../../core/problems.js';
import { dropPostgresSchema, requirePostgres, uniquePostgresSchema } from '../../support/external-services.js';
import { openAccount, queueJob, startInstance, tempDir, until, type JobsInstance } from './support/instance.js';
import type { Engine } from '../../../core/packs/engine.js';
import { sharedEngine } from './support/engine.js';

const T0 = '2026-01-01T00:00:00.000Z';

/**
 * Two instances, each with its own connection to one store: postgres when FINSYNTH_POSTGRES_URL is set, else
 * one sqlite file.
 */
describe('two runner instances on one store', function () {
  this.timeout(120_000);
  let stores: EventStore[] = [];
  let engine: Engine;
  const instances: JobsInstance[] = [];
  let cleanup = async () => {};
  const directories: string[] = [];

  before(async function () {
    engine = await sharedEngine();
    const dataDir = tempDir('fleet');
    directories.push(dataDir);
    if (process.env.FINSYNTH_POSTGRES_URL) {
      const url = await requirePostgres(this);
      const schema = uniquePostgresSchema('jobs');
      const config = loadConfig({ FINSYNTH_POSTGRES_URL: url }, { dataDir });
      stores = [
        await openEventStore(config, { postgresSchema: schema }),
        await openEventStore(config, { postgresSchema: schema }),
      ];
      cleanup = () => dropPostgresSchema(url, schema);
    } else {
      const config = loadConfig({}, { dataDir });
      stores = [await openEventStore(config), await openEventStore(config)];
    }
  });

  after(async () => {
    try {
      await Promise.all(instances.map((instance) => instance.stop()));
      await Promise.all(stores.map((store) => store.close()));
      await cleanup();
    } finally {
      for (const directory of directories) rmSync(directory, { recursive: true, force: true });
    }
  });

  /** One instance per store connection; their runners are not started. */
  async function startInstances(): Promise<JobsInstance[]> {
    const resultsDir = tempDir('fleet-results');
    directories.push(resultsDir);
    const started = await Promise.all(
      stores.map((store, index) =>
        startInstance({ store, engine, clock: systemClock, resultsDir, instanceId: `instance-${index}`, maxJobs: 3 }),
      ),
    );
    instances.push(...started);
    return started;
  }

  it('a Free account, 10 jobs created at once through both instances: exactly one is admitted, the others are 429', async () => {
    const fleet = await startInstances();
    const [first] = fleet;
    await openAccount(first, 'acc_free', 1000, T0, 'free');
    const config = {
      version: 1,
      sector: 'cards',
      seed: 1,
      tables: [{ name: 'merchants', rows: 10 }],
      output: { format: 'csv' },
    };
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, (_, index) =>
        fleet[index % fleet.length].service.create({
          accountId: 'acc_free',
          mode: 'live',
          keyId: 'key_1',
          input: { config },
        }),
      ),
    );

    const admitted = results.filter((result) => result.status === 'fulfilled');
    expect(admitted).to.have.length(1);
    for (const result of results) {
      if (result.status === 'fulfilled') continue;
      expect(result.reason, String(result.reason)).to.be.instanceOf(ProblemError);
      expect((result.reason as ProblemError).extensions).to.deep.equal({ limit: 1, active_jobs: 1, tier: 'free' });
    }
    for (const instance of fleet) await instance.projections.waitForHead();
    expect(first.service.list({ accountId: 'acc_free', mode: 'live' })).to.have.length(1);
    expect(await first.credits.balance('acc_free')).to.deep.equal({ credits_available: 999, credits_reserved: 1 });
  });

  it('20 queued jobs: each is claimed once and runs exactly once', async () => {
    const fleet = await startInstances();
    const [first] = fleet;
    await openAccount(first, 'acc_1', 10_000, T0);
    const ids = Array.from({ length: 20 }, (_, index) => `job_${String(index).padStart(2, '0')}`);
    for (const jobId of ids) await queueJob(first, { jobId, accountId: 'acc_1', rows: { transactions: 1000 }, at: T0 });
    for (const instance of fleet) instance.runner.start();

    await until(first, (jobs) => ids.every((id) => jobs.jobs[id].state === 'succeeded'), 60_000);
    for (const id of ids) {
      const types = (await first.store.readStream(jobStream(id))).map((event) => event.type);
      expect(
        types.filter((type) => type === 'JobStarted'),
        id,
      ).to.have.length(1);
      expect(
        types.filter((type) => type === 'JobSucceeded'),
        id,
      ).to.have.length(1);
    }
    const settled = (await first.store.readStream(accountStream('acc_1'))).filter(
      (event) => event.type === 'CreditsSettled',
    );
    expect(settled.map((event) => (event.data as { reference: string }).reference).sort()).to.deep.equal(ids);
    expect(await first.credits.balance('acc_1')).to.deep.equal({ credits_available: 10_000 - 20, credits_reserved: 0 });
  });
});
