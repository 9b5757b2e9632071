import { expect } from 'chai';
import type pg from 'pg';
import { migrationOnce } from '../../../core/store/postgres-transaction.js';

/**
 * A pool whose first `connect` fails (the database unreachable a moment), then hands out a client that
 * records its queries.
 */
function flakyPool(): { pool: pg.Pool; queries: string[] } {
  const queries: string[] = [];
  let connects = 0;
  const client = {
    query: async (text: string) => void queries.push(text),
    release: () => undefined,
    on: () => client,
    off: () => client,
  };
  const pool = {
    connect: async () => {
      if (connects++ === 0) throw new Error('connect ECONNREFUSED');
      return client;
    },
  };
  return { pool: pool as unknown as pg.Pool, queries };
}

describe('migrationOnce', () => {
  it('runs the migration again after a failure, and once only after a success', async () => {
    const { pool, queries } = flakyPool();
    let runs = 0;
    const migrate = migrationOnce(pool, async () => void runs++);
    const failed = await migrate().then(
      () => null,
      (error: Error) => error.message,
    );
    expect(failed).to.equal('connect ECONNREFUSED');
    await Promise.all([migrate(), migrate()]);
    await migrate();
    expect(runs).to.equal(1);
    expect(queries).to.deep.equal(['BEGIN', `SELECT pg_advisory_xact_lock(hashtext('finsynth-migrate'))`, 'COMMIT']);
  });
});
