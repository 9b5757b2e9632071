import { randomUUID } from 'node:crypto';
import type { NewEvent, RecordedEvent } from '../events/envelope.js';
import { chainHash } from '../events/hash-chain.js';
import { WrongExpectedRevisionError, type ExpectedRevision } from './event-store.js';

/** Throws WrongExpectedRevisionError unless the stream's last revision (-1: none) satisfies the expectation. */
export function checkExpectedRevision(stream: string, expected: ExpectedRevision, actual: number): void {
  const ok =
    expected === 'any' ||
    (expected === 'no_stream' && actual === -1) ||
    (expected === 'exists' && actual >= 0) ||
    expected === actual;
  if (!ok) throw new WrongExpectedRevisionError(stream, expected, actual);
}

/**
 * Gives new events their revisions, ids, time and chained hashes. Every adapter seals in the same
 * way, so a stream's hashes do not depend on where it is stored. Positions are the adapter's to give.
 */
export function sealEvents(
  stream: string,
  lastRevision: number,
  lastHash: string,
  events: readonly NewEvent[],
  recordedAt: string = new Date().toISOString(),
): Omit<RecordedEvent, 'position'>[] {
  let previous = lastHash;
  return events.map((event, index) => {
    const content = {
      id: event.id ?? randomUUID(),
      stream,
      revision: lastRevision + 1 + index,
      type: event.type,
      version: event.version ?? 1,
      data: event.data,
      metadata: event.metadata ?? {},
      recorded_at: recordedAt,
    };
    previous = chainHash(previous, content);
    return { ...content, hash: previous };
  });
}
