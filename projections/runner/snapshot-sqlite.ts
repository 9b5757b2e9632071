import type Database from 'better-sqlite3';
import type { ProjectionSnapshot, SnapshotStore } from './snapshot-store.js';

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS projection_snapshots (
    name     TEXT    PRIMARY KEY,
    version  INTEGER NOT NULL,
    position INTEGER NOT NULL,
    state    TEXT    NOT NULL
  ) STRICT;
`;

/** A snapshot saved again replaces the stored one whole. */
const OVERWRITE = 'version = excluded.version, position = excluded.position, state = excluded.state';

/** Snapshots in the events' own SQLite file, so that a backup of the file holds both consistently. */
export class SqliteSnapshotStore implements SnapshotStore {
  private readonly select;
  private readonly saveAll;

  constructor(db: Database.Database) {
    db.exec(SCHEMA);
    this.select = db.prepare('SELECT name, version, position, state FROM projection_snapshots WHERE name = ?');
    const upsert = db.prepare(`
      INSERT INTO projection_snapshots (name, version, position, state) VALUES (?, ?, ?, ?)
      ON CONFLICT (name) DO UPDATE SET ${OVERWRITE}`);
    this.saveAll = db.transaction((rows: readonly [string, number, number, string][]) => {
      for (const row of rows) upsert.run(...row);
    });
  }

  async load(name: string): Promise<ProjectionSnapshot | undefined> {
    const row = this.select.get(name) as { name: string; version: number; position: number; state: string } | undefined;
    return row && { ...row, state: JSON.parse(row.state) };
  }

  /** Each state written as JSON before the transaction: the file's write lock is held for the writes alone. */
  async save(snapshots: readonly ProjectionSnapshot[]): Promise<void> {
    this.saveAll.immediate(snapshots.map((s) => [s.name, s.version, s.position, JSON.stringify(s.state)] as const));
  }
}
