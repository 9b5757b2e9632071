import type pg from 'pg';

/**
 * Runs idempotent DDL in one transaction under the advisory lock every finsynth migration takes, so
 * that instances starting together on a fresh database do not race: concurrent `CREATE TABLE IF NOT
 * EXISTS` of one table can fail with a unique violation in PostgreSQL's catalog.
 */
export async function migrateUnderLock(pool: pg.Pool, migrate: (client: pg.PoolClient) => Promise<void>): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query(`SELECT pg_advisory_xact_lock(hashtext('finsynth-migrate'))`);
    await migrate(client);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    client.release();
  }
}
