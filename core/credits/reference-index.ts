/**
 * What a fold has seen under each reference (a grant, a debit, a reservation), for idempotency.
 * Immutable and persistent: `with` is O(1) and shares the past, so a pure evolve copies nothing
 * however long the account's history; `get` walks back from the newest entry, and a decision asks
 * once or twice per command. A newer entry under the same reference shadows the older one.
 */
export class ReferenceIndex<Value> {
  private constructor(
    private readonly entry: { reference: string; value: Value } | null,
    private readonly previous: ReferenceIndex<Value> | null,
  ) {}

  static empty<Value>(): ReferenceIndex<Value> {
    return new ReferenceIndex<Value>(null, null);
  }

  with(reference: string, value: Value): ReferenceIndex<Value> {
    return new ReferenceIndex({ reference, value }, this);
  }

  get(reference: string): Value | undefined {
    for (let node: ReferenceIndex<Value> | null = this; node?.entry; node = node.previous) {
      if (node.entry.reference === reference) return node.entry.value;
    }
    return undefined;
  }
}
