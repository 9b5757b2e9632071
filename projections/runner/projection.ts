import type { RecordedEvent } from '../../core/events/envelope.js';

/**
 * A read model built from events, and nothing else. The runner feeds it the events of the types it
 * handles, in global order; its state and checkpoint are stored together (one snapshot), so they can
 * never disagree. `toJSON` must be deterministic: rebuilding from zero gives byte-identical models.
 */
export interface Projection<State> {
  name: string;
  /** Bump when apply changes meaning: a snapshot of another version is discarded and rebuilt from zero. */
  version: number;
  handles: readonly string[];
  initialState(): State;
  /** May mutate and return the state. Throws on an event it cannot handle: the projection stops there. */
  apply(state: State, event: RecordedEvent): State;
  toJSON(state: State): unknown;
  fromJSON(json: unknown): State;
}
