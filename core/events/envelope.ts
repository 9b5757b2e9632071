/**
 * The event envelope (docs/architecture.md). Every adapter stores and returns exactly these members,
 * so that an event read from sqlite, postgres or kurrentdb hashes and replays identically.
 */

export type Mode = 'live' | 'test';

/** Who caused an event and why; carried through so that auditors can follow a credit back to a request. */
export interface EventMetadata {
  request_id?: string;
  correlation_id?: string;
  causation_id?: string;
  key_id?: string;
  mode?: Mode;
  [extra: string]: unknown;
}

/** An event as a command produces it, before the store gives it a place. */
export interface NewEvent<Type extends string = string, Data = unknown> {
  type: Type;
  data: Data;
  metadata?: EventMetadata;
  /** Schema version of `data`; 1 when not given. */
  version?: number;
  /** Set by the caller to make an append retry-safe; a UUID is drawn otherwise. */
  id?: string;
}

/**
 * An event as the store returns it. Revisions count from 0 in each stream, without gaps. Global
 * positions only increase, in the order every reader sees the events: sqlite and memory number them
 * 1, 2, 3…, postgres and kurrentdb leave gaps. Compare positions; never count with them.
 */
export interface RecordedEvent<Type extends string = string, Data = unknown> {
  id: string;
  stream: string;
  revision: number;
  position: number;
  type: Type;
  version: number;
  data: Data;
  metadata: EventMetadata;
  /** ISO 8601, UTC, millisecond precision. */
  recorded_at: string;
  /** SHA-256 (hex) over the previous event's hash and this event's canonical content. */
  hash: string;
}

/** The hash that stands before the first event of every stream. */
export const GENESIS_HASH = '0'.repeat(64);
