import pg from 'pg';
import { PostgresEventStore, quoteIdentifier } from '../../core/store/postgres-store.js';
import { dropPostgresSchema, requirePostgres, uniquePostgresSchema } from '../support/external-services.js';
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
  /** Its transactions take their id first and commit late: later transactions commit before them, below them in position order. */
  async openWriter() {
    const pool = new SlowCommitPool({ connectionString: url, max: 2 });
    slowPools.push(pool);
    return PostgresEventStore.open(url, { schema, pool });
  },
  async tamper(stream, revision, data) {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(`UPDATE ${quoteIdentifier(schema)}.events SET data = $1 WHERE stream = $2 AND revision = $3`, [JSON.stringify(data), stream, revision]);
    await client.end();
    return revision;
  },
  async close() {
    if (!store) return;
    await store.close();
    await dropPostgresSchema(url, schema);
    const slowCommits = slowPools.reduce((sum, pool) => sum + pool.slowCommits, 0);
    if (slowCommits === 0) throw new Error('no append went through the slow-commit pool: the in-flight gap was not exercised');
  },
});
