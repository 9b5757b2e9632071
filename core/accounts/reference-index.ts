import { Map as PersistentMap } from 'immutable';

/**
 * What a fold has seen under each reference (a grant, a debit, a reservation), for idempotency.
 * Immutable and persistent (a hash array mapped trie): `with` shares all but a few nodes with the index
 * it extends, so a pure evolve copies nothing, and neither `with` nor `get` grows with the length of the
 * account's history.
 */
export class ReferenceIndex<Value> {
  private constructor(private readonly entries: PersistentMap<string, Value>) {}

  static empty<Value>(): ReferenceIndex<Value> {
    return new ReferenceIndex<Value>(PersistentMap<string, Value>());
  }

  /** A newer value under a reference replaces the older one. */
  with(reference: string, value: Value): ReferenceIndex<Value> {
    return new ReferenceIndex(this.entries.set(reference, value));
  }

  get(reference: string): Value | undefined {
    return this.entries.get(reference);
  }
}
