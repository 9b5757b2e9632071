import { hash } from 'node:crypto';
import { canonicalJson } from './canonical-json.js';
import { GENESIS_HASH, type RecordedEvent } from './envelope.js';

/** The members of an event that its hash covers: everything but the global position, which a store assigns late. */
export type HashedContent = Omit<RecordedEvent, 'hash' | 'position'>;

/** The canonical JSON of an event's data and metadata: what its hash covers, and what the SQL stores keep verbatim. */
export interface CanonicalParts {
  data: string;
  metadata: string;
}

export function canonicalParts(event: Pick<HashedContent, 'data' | 'metadata'>): CanonicalParts {
  return { data: canonicalJson(event.data), metadata: canonicalJson(event.metadata) };
}

export function chainHash(previousHash: string, event: HashedContent, parts: CanonicalParts = canonicalParts(event)): string {
  // canonicalJson of the envelope's hashed members, spelled out in their sorted order so that the
  // envelope object is not built and sorted again for every event.
  const content =
    `{"data":${parts.data},"id":${canonicalJson(event.id)},"metadata":${parts.metadata},` +
    `"recorded_at":${canonicalJson(event.recorded_at)},"revision":${canonicalJson(event.revision)},` +
    `"stream":${canonicalJson(event.stream)},"type":${canonicalJson(event.type)},"version":${canonicalJson(event.version)}}`;
  return hash('sha256', `${previousHash}\n${content}`, 'hex');
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
