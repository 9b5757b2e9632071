import type { ChainVerification, StoredEvent } from '../events/hash-chain.js';
import type { NewEvent, RecordedEvent } from '../events/envelope.js';
import type { StoreStorage } from './storage.js';

/**
 * What an append expects of its stream. `no_stream`: the stream has no event yet; `exists`: it has
 * at least one; `any`: no check; a number: the revision of the stream's last event. The expected
 * revision is the only lock the domain uses (docs/architecture.md).
 */
export type ExpectedRevision = 'no_stream' | 'any' | 'exists' | number;

export interface AppendResult {
  /** Revision of the last event appended. */
  nextRevision: number;
  /** Global position of the last event appended: what read-your-writes waits for. */
  position: number;
}

export interface ReadStreamOptions {
  direction?: 'forwards' | 'backwards';
  /** Inclusive. Forwards defaults to 0, backwards to the stream's last revision. */
  fromRevision?: number;
  maxCount?: number;
}

export interface ReadAllOptions {
  /** Exclusive: events after this global position. 0 reads from the first event. */
  after?: number;
  maxCount?: number;
}

/** An event's place in the log and its hash: what the audit log's Merkle tree is built from. */
export interface EventHash {
  position: number;
  hash: string;
}

export interface Subscription {
  /** Resolves once the subscription has stopped and its handler will not be called again. */
  close(): Promise<void>;
}

export interface SubscribeOptions {
  /** Exclusive checkpoint: delivery starts with the first event after it. */
  after?: number;
  /** Called if the subscription stops on an error (the handler's or the store's). */
  onError?: (error: unknown) => void;
}

/**
 * The event store port. Every adapter (memory, sqlite, postgres, kurrentdb) passes the contract
 * suite in test/core/store/contract. Global positions are promised to increase, not to be contiguous.
 */
export interface EventStore {
  readonly name: string;
  /** Where the events are kept, so that the tables that belong beside them go there too. */
  readonly storage: StoreStorage;
  /** Atomic: all events are written with consecutive revisions, or none (WrongExpectedRevisionError). */
  append(
    stream: string,
    events: readonly NewEvent[],
    options?: { expectedRevision?: ExpectedRevision },
  ): Promise<AppendResult>;
  readStream(stream: string, options?: ReadStreamOptions): Promise<RecordedEvent[]>;
  /** In global position order, never skipping a position that a slower transaction will still fill. */
  readAll(options?: ReadAllOptions): Promise<RecordedEvent[]>;
  /**
   * Optional: read-all as stored, data and metadata as their JSON text, unparsed, in the order of readAll.
   * For a reader that checks hashes (the audit), which then hashes the stored bytes and parses only what it
   * needs. The sqlite adapter has it; from the others, such a reader spells the parsed events canonically again.
   */
  readAllStored?(options?: ReadAllOptions): Promise<StoredEvent[]>;
  /**
   * Optional: read-all of each event's position and hash alone, in the order of readAll, for the audit log's
   * integrator, which needs nothing else; from a store without it, the integrator reads whole events.
   */
  readAllHashes?(options?: ReadAllOptions): Promise<EventHash[]>;
  /** Highest global position a reader may see now; 0 for an empty store. */
  headPosition(): Promise<number>;
  /** Catch-up from `after`, then live; the handler is awaited, one event at a time, in order. */
  subscribeToAll(handler: (event: RecordedEvent) => Promise<void> | void, options?: SubscribeOptions): Subscription;
  /** Recomputes the stream's hash chain from the stored bytes. */
  verifyStream(stream: string): Promise<ChainVerification>;
  close(): Promise<void>;
}

export class WrongExpectedRevisionError extends Error {
  constructor(
    readonly stream: string,
    readonly expected: ExpectedRevision,
    /** -1 when the stream has no event. */
    readonly actual: number,
  ) {
    super(`stream "${stream}": expected revision ${String(expected)}, actual ${actual === -1 ? 'no stream' : actual}`);
  }
}
