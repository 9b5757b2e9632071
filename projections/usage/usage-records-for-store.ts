import type { EventRegistry } from '../../core/events/registry.js';
import type { EventStore } from '../../core/store/event-store.js';
import { MemoryUsageRecordTable } from './usage-records-memory.js';
import { PostgresUsageRecordTable } from './usage-records-postgres.js';
import { rebuiltInWorker } from './usage-records-rebuild.js';
import { SqliteUsageRecordTable } from './usage-records-sqlite.js';
import { UsageRecords, type UsageRecordTable } from './usage-records.js';

/**
 * The usage records go where the events are, as the projection snapshots do. A store without a
 * database of its own (memory, KurrentDB) keeps them in memory, rebuilt from the events on start.
 */
export function usageRecordTableFor(store: EventStore): UsageRecordTable {
  const storage = store.storage;
  switch (storage.kind) {
    case 'sqlite':
      return new SqliteUsageRecordTable(storage.db);
    case 'postgres':
      return new PostgresUsageRecordTable(storage.pool, storage.schema);
    case 'memory':
    case 'kurrentdb':
      return new MemoryUsageRecordTable();
  }
}

/**
 * The usage records of a store, in its table. A sqlite file's are rebuilt by a worker thread, so that a rebuild
 * of everything runs them beside the projections on a second core; an in-memory database cannot be shared.
 */
export function usageRecordsFor(store: EventStore, registry: EventRegistry): UsageRecords {
  const storage = store.storage;
  const file = storage.kind === 'sqlite' && !storage.db.memory ? storage.db.name : null;
  return new UsageRecords(store, registry, usageRecordTableFor(store), {
    rebuildApart: file === null ? undefined : () => rebuiltInWorker(file),
  });
}
