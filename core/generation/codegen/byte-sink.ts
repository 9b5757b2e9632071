/**
 * A chunk's output as UTF-8 bytes in one growing buffer, written cell by cell. Almost every cell is
 * ASCII (keys, codes, dates, numbers), so the writers copy character codes straight into the buffer and
 * check for what needs escaping in the same pass; anything else (escapes, non-ASCII text) takes the
 * slow path through TextEncoder. Building each row as a string and encoding batches of rows measured
 * about three times slower: the garbage collector, flattening the concatenated strings and scanning
 * each cell twice (once for escapes, once to encode) were most of the cost of a row.
 * The result is a Uint8Array over its own ArrayBuffer, ready to be transferred to the main thread.
 */
const encoder = new TextEncoder();
/**
 * The margin a chunk's size estimate carries over the table's rows so far (chunk.ts); a spare buffer
 * that much smaller than an estimate still serves, and only grows, once, for a chunk larger than the last.
 */
export const ESTIMATE_MARGIN = 1.1;

export class ByteSink {
  /** Writers that scan and copy a cell in one pass write here directly, after `reserve`. */
  buffer: Uint8Array;
  /** The same bytes as `buffer`, for writers that store four constant bytes at a time. */
  view: DataView;
  length = 0;

  /**
   * `spare`: a buffer of an earlier chunk, written over (none allocated) when it holds `initialBytes`
   * but for their margin: the estimates add a tenth, and the chunks of a table differ a little in size,
   * so a buffer handed back at its chunk's exact size would otherwise never serve again.
   */
  constructor(initialBytes = 1 << 16, spare?: ArrayBuffer) {
    const bytes = Math.max(64, initialBytes);
    this.buffer = spare && spare.byteLength * ESTIMATE_MARGIN >= bytes ? new Uint8Array(spare) : unfilled(bytes);
    this.view = viewOf(this.buffer);
  }

  /** Makes room for `bytes` more bytes. */
  reserve(bytes: number): void {
    if (this.buffer.length - this.length < bytes) this.grow(bytes);
  }

  /** Text the caller knows is ASCII (the text of a number). */
  ascii(text: string): void {
    const n = text.length;
    if (this.buffer.length - this.length < n) this.grow(n);
    const buffer = this.buffer;
    let at = this.length;
    for (let i = 0; i < n; i++) buffer[at++] = text.charCodeAt(i);
    this.length = at;
  }

  /** Any text, as UTF-8. */
  text(text: string): void {
    // UTF-8 needs at most 3 bytes per UTF-16 code unit.
    this.reserve(text.length * 3);
    this.length += encoder.encodeInto(text, this.buffer.subarray(this.length)).written;
  }

  /**
   * The bytes written. A buffer mostly filled is handed over as a view of it (transferring it moves the
   * whole buffer, a little larger than the view, without a copy); one mostly empty is copied to its size.
   */
  bytes(): Uint8Array {
    return this.length >= this.buffer.length * 0.75
      ? this.buffer.subarray(0, this.length)
      : this.buffer.slice(0, this.length);
  }

  private grow(needed: number): void {
    let capacity = this.buffer.length * 2;
    while (capacity - this.length < needed) capacity *= 2;
    const next = unfilled(capacity);
    next.set(this.buffer.subarray(0, this.length));
    this.buffer = next;
    this.view = viewOf(next);
  }
}

const viewOf = (buffer: Uint8Array) => new DataView(buffer.buffer, buffer.byteOffset, buffer.byteLength);

/**
 * A buffer of its own (transferable) left as allocated: every byte of it the chunk hands on is written
 * first. Zero-filling a chunk's 3-4 MB before writing it cost one worker 6-9 % of its rows (measured on
 * cards transactions: 294,252 rows/s before, 311,783-322,546 after).
 */
function unfilled(bytes: number): Uint8Array {
  const buffer = Buffer.allocUnsafeSlow(bytes);
  return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
}
