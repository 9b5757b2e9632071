import type { EventRegistry } from '../../core/events/registry.js';
import type { EventStore } from '../../core/store/event-store.js';
import { MemoryUsageRecordTable } from './usage-records-memory.js';
import { PostgresUsageRecordTable } from './usage-records-postgres.js';
import { SqliteUsageRecordTable } from './usage-records-sqlite.js';
import { UsageRecords, type UsageRecordTable } from './usage-records.js';
import { workerRebuildWriter } from './worker-rebuild-writer.js';

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
 * The usage records of a store, in its table. A sqlite file's rebuild writes through a worker thread, so that a
 * rebuild of everything writes them on a second core while this one reads and replays the projections; an in-memory
 * database cannot be shared.
 */
export function usageRecordsFor(store: EventStore, registry: EventRegistry): UsageRecords {
  const storage = store.storage;
  const file = storage.kind === 'sqlite' && !storage.db.memory ? storage.db.name : null;
  return new UsageRecords(store, registry, usageRecordTableFor(store), {
    rebuildWriter: file === null ? undefined : () => workerRebuildWriter(file),
  });
}
