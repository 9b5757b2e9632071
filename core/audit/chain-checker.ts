import { GENESIS_HASH, type RecordedEvent } from '../events/envelope.js';
import { chainHash, storedChainHash, type StoredEvent } from '../events/hash-chain.js';

export interface ChainHead {
  hash: string;
  revision: number;
}

type ChainLink = Pick<RecordedEvent, 'stream' | 'hash' | 'revision'>;

/**
 * Follows the hash chains of any number of streams at once, one event at a time, in any order that
 * keeps each stream's own order (a stream read, or the whole store in global order). The next event
 * chains from the stored hash, so one altered event is named alone rather than every event after it.
 */
export class ChainChecker {
  private readonly heads = new Map<string, ChainHead>();

  /** Starts a stream's chain from an event read elsewhere: how the audit of a later range of the store goes on. */
  resumeAfter(event: ChainLink): void {
    this.heads.set(event.stream, { hash: event.hash, revision: event.revision });
  }

  /** Where each stream's chain stands: its last event seen. */
  lastSeen(): ReadonlyMap<string, ChainHead> {
    return this.heads;
  }

  /** Null when the event follows its stream's chain; else why it does not. */
  check(event: RecordedEvent): string | null {
    return this.follow(event, (previousHash) => chainHash(previousHash, event) === event.hash);
  }

  /**
   * As check, for an event as stored: the hash is recomputed over the stored data and metadata text
   * itself. Text that is not stored canonically (an event written before the SQL stores kept the
   * canonical text) is parsed and hashed canonically instead: the same content, spelled otherwise.
   */
  checkStored(event: StoredEvent): string | null {
    return this.follow(
      event,
      (previousHash) => storedChainHash(previousHash, event) === event.hash || hashesReparsed(previousHash, event),
    );
  }

  private follow(event: ChainLink, hashMatches: (previousHash: string) => boolean): string | null {
    const head = this.heads.get(event.stream);
    const previous = head ? head.revision : -1;
    const previousHash = head ? head.hash : GENESIS_HASH;
    if (head) {
      head.hash = event.hash;
      head.revision = event.revision;
    } else {
      this.heads.set(event.stream, { hash: event.hash, revision: event.revision });
    }
    if (event.revision !== previous + 1) return `expected revision ${previous + 1}, found ${event.revision}`;
    if (!hashMatches(previousHash)) return 'the hash does not match the event content: the stored event was altered';
    return null;
  }
}

function hashesReparsed(previousHash: string, event: StoredEvent): boolean {
  let data: unknown, metadata: RecordedEvent['metadata'];
  try {
    data = JSON.parse(event.data);
    metadata = JSON.parse(event.metadata);
  } catch {
    return false; // text that is not even JSON was altered
  }
  return chainHash(previousHash, { ...event, data, metadata }) === event.hash;
}
