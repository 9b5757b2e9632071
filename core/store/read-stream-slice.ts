import type { RecordedEvent } from '../events/envelope.js';
import type { ReadStreamOptions } from './event-store.js';

/**
 * The slice of a stream (ordered by revision) that ReadStreamOptions asks for; for adapters that hold
 * streams as arrays.
 */
export function readStreamSlice(events: readonly RecordedEvent[], options: ReadStreamOptions): RecordedEvent[] {
  const maxCount = options.maxCount ?? Number.MAX_SAFE_INTEGER;
  if (options.direction === 'backwards') {
    const from = Math.min(options.fromRevision ?? events.length - 1, events.length - 1);
    return events.slice(Math.max(0, from - maxCount + 1), from + 1).reverse();
  }
  const from = options.fromRevision ?? 0;
  return events.slice(from, from + maxCount);
}
