import type { EventStore } from '../../core/store/event-store.js';
import { MemoryUsageRecordTable } from './usage-records-memory.js';
import { PostgresUsageRecordTable } from './usage-records-postgres.js';
import { SqliteUsageRecordTable } from './usage-records-sqlite.js';
import type { UsageRecordTable } from './usage-records.js';

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
