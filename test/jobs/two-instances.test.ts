import { expect } from 'chai';
import { systemClock } from '../../core/clock.js';
import { loadConfig } from '../../core/config.js';
import { accountStream } from '../../core/domain/account/index.js';
import { jobStream } from '../../core/domain/job/index.js';
import type { EventStore } from '../../core/store/event-store.js';
import { openEventStore } from '../../core/store/open-store.js';
import { dropPostgresSchema, requirePostgres, uniquePostgresSchema } from '../support/external-services.js';
import { openAccount, queueJob, startInstance, tempDir, until, type JobsInstance } from './support/instance.js';
import { createEngine, type Engine } from '../../core/generation/engine.js';

const T0 = '2026-01-01T00:00:00.000Z';

/** Two instances, each with its own connection to one store: postgres when FINSYNTH_POSTGRES_URL is set, else one sqlite file. */
describe('two runner instances on one store', function () {
  this.timeout(120_000);
  let stores: EventStore[] = [];
  let engine: Engine;
  let instances: JobsInstance[] = [];
  let cleanup = async () => {};

  before(async function () {
    engine = await createEngine({ poolSize: 2, packs: [] });
    const dataDir = tempDir('fleet');
    if (process.env.FINSYNTH_POSTGRES_URL) {
      const url = await requirePostgres(this);
      const schema = uniquePostgresSchema('jobs');
      const config = loadConfig({ FINSYNTH_POSTGRES_URL: url }, { dataDir });
      stores = [await openEventStore(config, { postgresSchema: schema }), await openEventStore(config, { postgresSchema: schema })];
      cleanup = () => dropPostgresSchema(url, schema);
    } else {
      const config = loadConfig({}, { dataDir });
      stores = [await openEventStore(config), await openEventStore(config)];
    }
  });

  after(async () => {
    await Promise.all(instances.map((instance) => instance.stop()));
    await Promise.all(stores.map((store) => store.close()));
    await cleanup();
    await engine.close();
  });

  it('20 queued jobs: each is claimed once and runs exactly once', async () => {
    const resultsDir = tempDir('fleet-results');
    for (const [index, store] of stores.entries()) {
      instances.push(await startInstance({ store, engine, clock: systemClock, resultsDir, instanceId: `instance-${index}`, maxJobs: 3 }));
    }
    const [first] = instances;
    await openAccount(first, 'acc_1', 10_000, T0);
    const ids = Array.from({ length: 20 }, (_, index) => `job_${String(index).padStart(2, '0')}`);
    for (const jobId of ids) await queueJob(first, { jobId, accountId: 'acc_1', rows: { transactions: 1000 }, at: T0 });
    for (const instance of instances) instance.runner.start();

    await until(first, (jobs) => ids.every((id) => jobs.jobs[id].state === 'succeeded'), 60_000);
    for (const id of ids) {
      const types = (await first.store.readStream(jobStream(id))).map((event) => event.type);
      expect(types.filter((type) => type === 'JobStarted'), id).to.have.length(1);
      expect(types.filter((type) => type === 'JobSucceeded'), id).to.have.length(1);
    }
    const settled = (await first.store.readStream(accountStream('acc_1'))).filter((event) => event.type === 'CreditsSettled');
    expect(settled.map((event) => (event.data as { reference: string }).reference).sort()).to.deep.equal(ids);
    expect(await first.credits.balance('acc_1')).to.deep.equal({ credits_available: 10_000 - 20, credits_reserved: 0 });
  });
});
