import { join } from 'node:path';
import { AuditLog } from '../../../../core/audit/log/audit-log.js';
import { MemoryTreeStorage } from '../../../../core/audit/log/tree-memory.js';
import type { EventStore } from '../../../../core/store/event-store.js';

/**
 * A log over `store`, its tree in memory and its key in `dir`, started: every event of the store integrated and
 * a checkpoint signed at most a millisecond apart, so that a bundle exported from it covers them all. Any error
 * of its background work fails the test that made it.
 */
export async function startedLog(store: EventStore, dir: string): Promise<AuditLog> {
  const log = new AuditLog({
    store,
    storage: new MemoryTreeStorage(),
    keyFile: join(dir, 'audit-signing.key'),
    origin: 'example.test/audit',
    checkpointIntervalMs: 1,
    integrateIntervalMs: 3_600_000,
    onError: (error) => {
      throw error;
    },
  });
  await log.start();
  return log;
}
