/**
 * The last event (revision and hash) of recently used streams, as this process last saw it. An append
 * seals on it without reading the head first; if another writer moved the stream meanwhile, the
 * database's unique (stream, revision) key refuses the insert and the append reads the head again. An
 * event never changes once written, so a remembered head can be outdated but never wrong.
 */
export class StreamHeads {
  private readonly heads = new Map<string, { revision: number; hash: string }>();

  constructor(private readonly capacity = 10_000) {}

  get(stream: string): { revision: number; hash: string } | undefined {
    return this.heads.get(stream);
  }

  remember(stream: string, revision: number, hash: string): void {
    const known = this.heads.get(stream);
    if (known && known.revision >= revision) return;
    this.heads.delete(stream);
    this.heads.set(stream, { revision, hash });
    // Maps iterate in insertion order: the first key is the least recently moved stream.
    if (this.heads.size > this.capacity) this.heads.delete(this.heads.keys().next().value!);
  }

  forget(stream: string): void {
    this.heads.delete(stream);
  }
}
