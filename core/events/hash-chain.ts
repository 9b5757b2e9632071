import { createHash } from 'node:crypto';
import { canonicalJson } from './canonical-json.js';
import { GENESIS_HASH, type RecordedEvent } from './envelope.js';

/** The members of an event that its hash covers: everything but the global position, which a store assigns late. */
export type HashedContent = Omit<RecordedEvent, 'hash' | 'position'>;

export function chainHash(previousHash: string, event: HashedContent): string {
  const content = canonicalJson({
    id: event.id,
    stream: event.stream,
    revision: event.revision,
    type: event.type,
    version: event.version,
    data: event.data,
    metadata: event.metadata,
    recorded_at: event.recorded_at,
  });
  return createHash('sha256').update(previousHash).update('\n').update(content).digest('hex');
}

export type ChainVerification =
  | { intact: true; stream: string; events: number; head: string }
  | { intact: false; stream: string; revision: number; reason: string };

/** Walks a stream from its first event and names the first revision whose hash does not follow. */
export function verifyChain(stream: string, events: Iterable<RecordedEvent>): ChainVerification {
  let previous = GENESIS_HASH;
  let expectedRevision = 0;
  for (const event of events) {
    if (event.revision !== expectedRevision) {
      return { intact: false, stream, revision: expectedRevision, reason: `revision ${expectedRevision} is missing` };
    }
    if (chainHash(previous, event) !== event.hash) {
      return { intact: false, stream, revision: event.revision, reason: 'hash does not match the event content' };
    }
    previous = event.hash;
    expectedRevision += 1;
  }
  return { intact: true, stream, events: expectedRevision, head: previous };
}
