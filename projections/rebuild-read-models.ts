import type { EventStore } from '../core/store/event-store.js';
import type { ProjectionRunner } from './runner/projection-runner.js';
import type { UsageRecords } from './usage/usage-records.js';

/** From this many events on, read models missing altogether are rebuilt in one read rather than caught up. */
export const REBUILD_FROM_EVENTS = 10_000;

/**
 * Every read model the service keeps rebuilt from the first event in one read: the projections replayed in this
 * thread, and the usage records' changes taken from the same pages of events.
 */
export function rebuildReadModels(runner: ProjectionRunner, usageRecords: UsageRecords): Promise<void> {
  return usageRecords.rebuildAlongside((page) => runner.rebuildAll(page));
}

/**
 * Rebuilds every read model when all are missing (a first start on restored events; snapshots and usage records
 * lost) and the store holds at least `from` events: caught up instead, the projections and the usage records would
 * each read every event, and the records be written a thousand events a transaction. Answers the store's head it
 * rebuilt to, or null when it left them to catch up.
 */
export async function rebuildIfMissing(
  store: EventStore,
  runner: ProjectionRunner,
  usageRecords: UsageRecords,
  from = REBUILD_FROM_EVENTS,
): Promise<number | null> {
  const head = await store.headPosition();
  if (head < Math.max(1, from)) return null;
  if (!(await runner.fromScratch()) || (await usageRecords.table.checkpoint()) !== 0) return null;
  await rebuildReadModels(runner, usageRecords);
  return head;
}
