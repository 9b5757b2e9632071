import type { Config } from '../settings/settings.js';
import type { EventStore } from '../store/event-store.js';
import { auditChunks, type ChunkAudit, type ChunkedRange } from './audit-range.js';

/**
 * Where a worker reads its range: the sqlite file the parent audits, or the store the configuration
 * names. Each adapter is imported only when named: loading the postgres and kurrentdb clients for a
 * sqlite file would be most of a worker's start-up (measured; see docs/performance.md).
 */
export type AuditSource = { sqliteFile: string } | { config: Config };

async function open(source: AuditSource): Promise<EventStore> {
  if ('sqliteFile' in source) {
    const { SqliteEventStore } = await import('../store/sqlite-store.js');
    return new SqliteEventStore(source.sqliteFile);
  }
  const { openEventStore } = await import('../store/open-store.js');
  return openEventStore(source.config);
}

/** A worker's share of the parallel audit, over its own connection to the store. */
export async function auditChunksOf(source: AuditSource, range: ChunkedRange): Promise<ChunkAudit[]> {
  const store = await open(source);
  try {
    return await auditChunks(store, range);
  } finally {
    await store.close();
  }
}
