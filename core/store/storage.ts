import type Database from 'better-sqlite3';
import type pg from 'pg';

/**
 * Where a store keeps its events, for the tables that belong beside them (projection snapshots, usage
 * records): in the same database, they share its backups and its lifetime. The memory and KurrentDB
 * stores offer no database to write such tables in.
 */
export type StoreStorage =
  | { kind: 'sqlite'; db: Database.Database }
  /** `schema`: quoted, ready to prefix a table name. */
  | { kind: 'postgres'; pool: pg.Pool; schema: string }
  | { kind: 'memory' }
  | { kind: 'kurrentdb' };
