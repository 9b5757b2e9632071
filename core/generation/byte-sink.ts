/**
 * Collects a chunk's text as UTF-8 bytes in one growing buffer. Rows are appended to a pending string
 * and encoded in batches of about 32 K characters: one string for a whole chunk made the garbage
 * collector the main cost, and one encode call per row made the call overhead the next one (writing
 * bytes cell by cell from JavaScript measured slower than V8's own string concatenation). The result is
 * a Uint8Array with its own ArrayBuffer, ready to be transferred to the main thread.
 */
const encoder = new TextEncoder();
const BATCH_CHARS = 32_768;

export class ByteSink {
  private buffer: Uint8Array;
  private length = 0;
  private pending = '';

  constructor(initialBytes = 1 << 16) {
    this.buffer = new Uint8Array(initialBytes);
  }

  write(text: string): void {
    this.pending += text;
    if (this.pending.length >= BATCH_CHARS) this.flush();
  }

  /** The bytes written, in a buffer of exactly their size. */
  bytes(): Uint8Array {
    this.flush();
    return this.buffer.slice(0, this.length);
  }

  private flush(): void {
    const text = this.pending;
    this.pending = '';
    // UTF-8 needs at most 3 bytes per UTF-16 code unit.
    if (this.buffer.length - this.length < text.length * 3) this.grow(text.length * 3);
    this.length += encoder.encodeInto(text, this.buffer.subarray(this.length)).written;
  }

  private grow(needed: number): void {
    let capacity = this.buffer.length * 2;
    while (capacity - this.length < needed) capacity *= 2;
    const next = new Uint8Array(capacity);
    next.set(this.buffer.subarray(0, this.length));
    this.buffer = next;
  }
}
