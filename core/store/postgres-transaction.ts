import type pg from 'pg';

/**
 * Runs `work` in one transaction on one connection of the pool: committed if it returns, rolled back if
 * it throws. The work's own error is what the caller sees, whatever the rollback meets.
 */
export async function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  // A checked-out connection that is lost emits 'error' besides failing its query; the pool listens
  // only to idle ones, and an unheard 'error' would end the process. The failed query carries it.
  const ignore = () => undefined;
  client.on('error', ignore);
  let broken: Error | undefined;
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch((rollbackError: unknown) => {
      // The connection is lost or its server does not answer: the pool must not hand it out again.
      broken = rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError));
    });
    throw error;
  } finally {
    client.off('error', ignore);
    client.release(broken);
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
export function migrationOnce(
  pool: pg.Pool,
  migrate: (client: pg.PoolClient) => Promise<unknown>,
): () => Promise<void> {
  let ready: Promise<void> | undefined;
  return () =>
    (ready ??= migrateUnderLock(pool, migrate).catch((error: unknown) => {
      ready = undefined;
      throw error;
    }));
}
