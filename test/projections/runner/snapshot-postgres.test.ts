import { expect } from 'chai';
import { PostgresEventStore } from '../../../core/store/postgres-store.js';
import { PostgresSnapshotStore } from '../../../projections/runner/snapshot-postgres.js';
import { dropPostgresSchema, requirePostgres, uniquePostgresSchema } from '../../support/external-services.js';

describe('PostgresSnapshotStore', function () {
  let url: string;

  before(async function () {
    url = await requirePostgres(this);
  });

  /** Eight instances' first load at the same moment on a fresh schema (the race lost about one time in two). */
  async function startTogether(): Promise<void> {
    const schema = uniquePostgresSchema('snapshots');
    const store = await PostgresEventStore.open(url, { schema, poolSize: 12 });
    try {
      const instances = Array.from({ length: 8 }, () => new PostgresSnapshotStore(store.pool, store.schema));
      const loaded = await Promise.all(instances.map((instance) => instance.load('usage')));
      expect(loaded).to.deep.equal(new Array(8).fill(undefined));
      await Promise.all(
        instances.map((instance, n) => instance.save([{ name: `p${n}`, version: 1, position: n, state: { n } }])),
      );
      expect(await instances[0].load('p7')).to.deep.equal({ name: 'p7', version: 1, position: 7, state: { n: 7 } });
    } finally {
      await store.close();
      await dropPostgresSchema(url, schema);
    }
  }

  it('serves instances that start together on a fresh schema: its table is created once, not raced', async () => {
    for (let round = 0; round < 10; round++) await startTogether();
  });

  /**
   * Two instances as two processes start them: each its own pool, the schema and both tables created under
   * the migration lock.
   */
  async function twoInstancesTogether(): Promise<void> {
    const schema = uniquePostgresSchema('snapshots');
    const stores = await Promise.all([
      PostgresEventStore.open(url, { schema }),
      PostgresEventStore.open(url, { schema }),
    ]);
    try {
      const instances = stores.map((store) => new PostgresSnapshotStore(store.pool, store.schema));
      expect(await Promise.all(instances.map((instance) => instance.load('usage')))).to.deep.equal([
        undefined,
        undefined,
      ]);
      await Promise.all(
        instances.map((instance, n) => instance.save([{ name: 'usage', version: 1, position: n, state: { n } }])),
      );
      const [first, second] = await Promise.all(instances.map((instance) => instance.load('usage')));
      expect(first, 'both see the row one of them wrote last').to.deep.equal(second);
    } finally {
      await Promise.all(stores.map((store) => store.close()));
      await dropPostgresSchema(url, schema);
    }
  }

  it('serves two instances, each with its own connections, that start together on a fresh schema', async () => {
    for (let round = 0; round < 10; round++) await twoInstancesTogether();
  });
});
