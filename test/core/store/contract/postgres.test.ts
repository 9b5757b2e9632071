import { expect } from 'chai';
import pg from 'pg';
import { PostgresEventStore, quoteIdentifier } from '../../../../core/store/postgres-store.js';
import { dropPostgresSchema, requirePostgres, uniquePostgresSchema } from '../../../support/external-services.js';
import { eventStoreContract } from './event-store-contract.js';
import { SlowCommitPool } from './slow-commit-pool.js';

let url: string;
let schema: string;
let store: PostgresEventStore | undefined;
const slowPools: SlowCommitPool[] = [];

eventStoreContract('postgres', {
  async open(context) {
    url = await requirePostgres(context);
    schema = uniquePostgresSchema('contract');
    store = await PostgresEventStore.open(url, { schema });
    return store;
  },
  /**
   * Its transactions take their id first and commit late: later transactions commit before them, below them
   * in position order.
   */
  async openWriter() {
    const pool = new SlowCommitPool({ connectionString: url, max: 2 });
    slowPools.push(pool);
    return PostgresEventStore.open(url, { schema, pool });
  },
  async tamper(stream, revision, data) {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(`UPDATE ${quoteIdentifier(schema)}.events SET data = $1 WHERE stream = $2 AND revision = $3`, [
      JSON.stringify(data),
      stream,
      revision,
    ]);
    await client.end();
    return revision;
  },
  async close() {
    if (!store) return;
    await store.close();
    await dropPostgresSchema(url, schema);
    const slowCommits = slowPools.reduce((sum, pool) => sum + pool.slowCommits, 0);
    if (slowCommits === 0)
      throw new Error('no append went through the slow-commit pool: the in-flight gap was not exercised');
  },
});

describe('postgres store: appends of another instance', function () {
  it('wake a subscription by notification, not by its poll', async function () {
    const url = await requirePostgres(this);
    const schema = uniquePostgresSchema('notify');
    // Polling once an hour: within the test's time limit only a notification can deliver the event.
    const subscriber = await PostgresEventStore.open(url, { schema, pollIntervalMs: 3_600_000 });
    const other = await PostgresEventStore.open(url, { schema });
    await subscriber.append('before', [{ type: 'Noted', data: {} }]);
    const seen: string[] = [];
    const subscription = subscriber.subscribeToAll((event) => void seen.push(event.stream));
    const pause = () => new Promise((resolve) => setTimeout(resolve, 50));
    try {
      // Once it has seen `before`, its first read is done: what comes later can only come by a wake-up.
      while (!seen.includes('before')) await pause();
      // Appending until it sees one covers the moment before its LISTEN is in place.
      for (let attempt = 0; attempt < 100 && !seen.includes('elsewhere'); attempt++) {
        await other.append('elsewhere', [{ type: 'Noted', data: {} }]);
        await pause();
      }
      expect(seen).to.include('elsewhere');

      // The listening connection dies (a server restart, a proxy's timeout): it is opened again.
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      const { rows } = await admin.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity ` +
          `WHERE query IN ('LISTEN finsynth_events', 'SELECT pg_notify($1, $2)') AND pid <> pg_backend_pid()`,
      );
      await admin.end();
      expect(rows.length, 'listening connections terminated').to.be.greaterThan(0);
      for (let attempt = 0; attempt < 100 && !seen.includes('after-reconnect'); attempt++) {
        await other.append('after-reconnect', [{ type: 'Noted', data: {} }]);
        await pause();
      }
      expect(seen).to.include('after-reconnect');
    } finally {
      await subscription.close();
      await other.close();
      await subscriber.close();
      await dropPostgresSchema(url, schema);
    }
  });
});
