import type pg from 'pg';
import { migrationOnce } from '../../core/store/postgres-transaction.js';
import type { ProjectionSnapshot, SnapshotStore } from './snapshot-store.js';

/** A snapshot saved again replaces the stored one whole. */
const OVERWRITE = 'version = excluded.version, position = excluded.position, state = excluded.state';

/** Snapshots in the events' own schema, shared by a fleet: each row is a consistent (state, position) pair. */
export class PostgresSnapshotStore implements SnapshotStore {
  private readonly table: string;
  private readonly migrate: () => Promise<void>;

  constructor(
    private readonly pool: pg.Pool,
    quotedSchema: string,
  ) {
    this.table = `${quotedSchema}.projection_snapshots`;
    this.migrate = migrationOnce(pool, (client) =>
      client.query(`
      CREATE TABLE IF NOT EXISTS ${this.table} (
        name     text    PRIMARY KEY,
        version  integer NOT NULL,
        position bigint  NOT NULL,
        state    jsonb   NOT NULL
      )`),
    );
  }

  async load(name: string): Promise<ProjectionSnapshot | undefined> {
    await this.migrate();
    const result = await this.pool.query<{ name: string; version: number; position: string; state: unknown }>(
      `SELECT name, version, position, state FROM ${this.table} WHERE name = $1`,
      [name],
    );
    const row = result.rows[0];
    return row && { ...row, position: Number(row.position) };
  }

  async save(snapshots: readonly ProjectionSnapshot[]): Promise<void> {
    await this.migrate();
    await this.pool.query(
      `INSERT INTO ${this.table} (name, version, position, state)
       SELECT * FROM unnest($1::text[], $2::int[], $3::bigint[], $4::jsonb[])
       ON CONFLICT (name) DO UPDATE SET ${OVERWRITE}`,
      [
        snapshots.map((s) => s.name),
        snapshots.map((s) => s.version),
        snapshots.map((s) => s.position),
        snapshots.map((s) => JSON.stringify(s.state)),
      ],
    );
  }
}
