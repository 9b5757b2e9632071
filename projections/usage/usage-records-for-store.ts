import type { EventStore } from '../../core/store/event-store.js';
import { SqliteEventStore } from '../../core/store/sqlite-store.js';
import { PostgresEventStore } from '../../core/store/postgres-store.js';
import { MemoryUsageRecordTable } from './usage-records-memory.js';
import { PostgresUsageRecordTable } from './usage-records-postgres.js';
import { SqliteUsageRecordTable } from './usage-records-sqlite.js';
import type { UsageRecordTable } from './usage-records.js';

/**
 * The usage records go where the events are, as the projection snapshots do. A store without a
 * database of its own (memory, KurrentDB) keeps them in memory, rebuilt from the events on start.
 */
export function usageRecordTableFor(store: EventStore): UsageRecordTable {
  if (store instanceof SqliteEventStore) return new SqliteUsageRecordTable(store.db);
  if (store instanceof PostgresEventStore) return new PostgresUsageRecordTable(store.pool, store.schema);
  return new MemoryUsageRecordTable();
}
