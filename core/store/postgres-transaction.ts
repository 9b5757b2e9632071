import type pg from 'pg';

/** Runs `work` in one transaction on one connection of the pool: committed if it returns, rolled back if it throws. */
export async function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    client.release();
  }
}

/**
 * Runs idempotent DDL in one transaction under the advisory lock every finsynth migration takes, so
 * that instances starting together on a fresh database do not race: concurrent `CREATE TABLE IF NOT
 * EXISTS` of one table can fail with a unique violation in PostgreSQL's catalog.
 */
export function migrateUnderLock(pool: pg.Pool, migrate: (client: pg.PoolClient) => Promise<unknown>): Promise<void> {
  return inTransaction(pool, async (client) => {
    await client.query(`SELECT pg_advisory_xact_lock(hashtext('finsynth-migrate'))`);
    await migrate(client);
  });
}

/**
 * A migration run by the first caller and shared by the others; one that failed (the database was
 * unreachable a moment) is run again by the next caller instead of failing every later one.
 */
export function migrationOnce(pool: pg.Pool, migrate: (client: pg.PoolClient) => Promise<unknown>): () => Promise<void> {
  let ready: Promise<void> | undefined;
  return () =>
    (ready ??= migrateUnderLock(pool, migrate).catch((error: unknown) => {
      ready = undefined;
      throw error;
    }));
}
