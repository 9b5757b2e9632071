import type { EventStore } from '../../store/event-store.js';
import { MemoryTreeStorage } from './tree-memory.js';
import { PostgresTreeStorage } from './tree-postgres.js';
import { SqliteTreeStorage } from './tree-sqlite.js';
import type { TreeStorage } from './tree-storage.js';

/**
 * The tree goes where the events are, as the projection snapshots do. KurrentDB offers no table beside its
 * events: there each instance keeps the tree in memory and builds it from the events when it starts.
 */
export function treeStorageFor(store: EventStore): TreeStorage {
  const storage = store.storage;
  switch (storage.kind) {
    case 'sqlite':
      return new SqliteTreeStorage(storage.db);
    case 'postgres':
      return new PostgresTreeStorage(storage.pool, storage.schema);
    case 'memory':
    case 'kurrentdb':
      return new MemoryTreeStorage();
  }
}
