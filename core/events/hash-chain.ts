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

export function chainHash(
  previousHash: string,
  event: HashedContent,
  parts: CanonicalParts = canonicalParts(event),
): string {
  return hashOverParts(previousHash, event, parts, canonicalJson);
}

/**
 * An event as a store keeps it: data and metadata as the JSON text written, not parsed. The SQL stores
 * keep the canonical text the hash was computed over, so a reader that checks hashes can hash it as stored.
 */
export type StoredEvent = Omit<RecordedEvent, 'data' | 'metadata'> & CanonicalParts;

/**
 * The hash over a stored event's data and metadata text exactly as stored. It equals the event's
 * hash only if that text is canonical JSON (as the SQL stores write it) and unaltered, and no string
 * member holds a control character (which canonical JSON would escape): a caller whose hash does not
 * match checks the event canonically before naming it.
 */
export function storedChainHash(previousHash: string, event: StoredEvent): string {
  return hashOverParts(previousHash, event, event, quoteUnlessEscaped);
}

function hashOverParts(
  previousHash: string,
  event: Omit<HashedContent, 'data' | 'metadata'>,
  parts: CanonicalParts,
  quote: (text: string) => string,
): string {
  // canonicalJson of the envelope's hashed members, spelled out in their sorted order so that the
  // envelope object is not built and sorted again for every event.
  const content =
    `{"data":${parts.data},"id":${quote(event.id)},"metadata":${parts.metadata},` +
    `"recorded_at":${quote(event.recorded_at)},"revision":${canonicalJson(event.revision)},` +
    `"stream":${quote(event.stream)},"type":${quote(event.type)},"version":${canonicalJson(event.version)}}`;
  return hash('sha256', `${previousHash}\n${content}`, 'hex');
}

/**
 * A string quoted as canonical JSON would quote it, checking only for the two characters that another
 * string could hide behind (a quote, a backslash): two scans of the string cost less than the regular
 * expression that canonicalJson also runs for control characters (measured).
 */
function quoteUnlessEscaped(text: string): string {
  return text.indexOf('"') === -1 && text.indexOf('\\') === -1 ? `"${text}"` : JSON.stringify(text);
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
