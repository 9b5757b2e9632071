import { randomUUID } from 'node:crypto';
import type { NewEvent, RecordedEvent } from '../events/envelope.js';
import { canonicalParts, chainHash, type CanonicalParts } from '../events/hash-chain.js';
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

/** A new event with its place in the stream, and the canonical JSON its hash was computed over. */
export interface SealedEvent {
  event: Omit<RecordedEvent, 'position'>;
  /** Stored verbatim by the SQL adapters, so that the stored bytes are exactly the hashed bytes. */
  json: CanonicalParts;
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
): SealedEvent[] {
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
    const json = canonicalParts(content);
    previous = chainHash(previous, content, json);
    return { event: { ...content, hash: previous }, json };
  });
}
