import type { EventStore } from '../../core/store/event-store.js';
import { SqliteEventStore } from '../../core/store/sqlite-store.js';
import { SqliteSnapshotStore } from './snapshot-sqlite.js';
import { PostgresEventStore } from '../../core/store/postgres-store.js';
import { PostgresSnapshotStore } from './snapshot-postgres.js';
import { MemorySnapshotStore, type SnapshotStore } from './snapshot-store.js';

/**
 * Snapshots go where the events are: in the same database when the store has one, so that they share
 * its backups and its lifetime. Stores without a place for them (memory, KurrentDB) keep them in memory,
 * and projections rebuild from the events on start.
 */
export function snapshotStoreFor(store: EventStore): SnapshotStore {
  if (store instanceof SqliteEventStore) return new SqliteSnapshotStore(store.db);
  if (store instanceof PostgresEventStore) return new PostgresSnapshotStore(store.pool, store.schema);
  return new MemorySnapshotStore();
}
