import type { EventStore } from '../../core/store/event-store.js';
import { SqliteSnapshotStore } from './snapshot-sqlite.js';
import { PostgresSnapshotStore } from './snapshot-postgres.js';
import { MemorySnapshotStore, type SnapshotStore } from './snapshot-store.js';

/**
 * Snapshots go where the events are: in the same database when the store has one, so that they share
 * its backups and its lifetime. Stores without a place for them (memory, KurrentDB) keep them in memory,
 * and projections rebuild from the events on start.
 */
export function snapshotStoreFor(store: EventStore): SnapshotStore {
  const storage = store.storage;
  switch (storage.kind) {
    case 'sqlite':
      return new SqliteSnapshotStore(storage.db);
    case 'postgres':
      return new PostgresSnapshotStore(storage.pool, storage.schema);
    case 'memory':
    case 'kurrentdb':
      return new MemorySnapshotStore();
  }
}
