/**
 * A chunk's output as UTF-8 bytes written straight into one growing buffer. Cells are copied character
 * by character (ASCII, by far the common case) with escaping decided on the way, so no row string, no
 * rope of row strings and no separate encoding pass exist: building strings was most of the cost of a
 * row. Non-ASCII text takes the TextEncoder path. The result is a Uint8Array with its own ArrayBuffer,
 * ready to be transferred to the main thread.
 */
const encoder = new TextEncoder();
const QUOTE = 34;
const BACKSLASH = 92;
const COMMA = 44;
const MINUS = 45;
const DOT = 46;
const ZERO = 48;
const POW10 = [1, 10, 100, 1000, 10000];

export class ByteSink {
  private buffer: Uint8Array;
  private position = 0;

  constructor(initialBytes = 1 << 16) {
    this.buffer = new Uint8Array(initialBytes);
  }

  /** Bytes prepared once (column prefixes, separators). */
  raw(bytes: Uint8Array): void {
    this.ensure(bytes.length);
    const buffer = this.buffer;
    let at = this.position;
    for (let i = 0; i < bytes.length; i++) buffer[at++] = bytes[i];
    this.position = at;
  }

  /** Text known to need no escaping (numbers, booleans); any character set. */
  text(value: string): void {
    if (!this.ascii(value, false, false)) this.encoded(value);
  }

  /** A JSON string literal: quoted, escaped when needed. */
  jsonString(value: string): void {
    const start = this.position;
    this.ensure(value.length + 2);
    this.buffer[this.position++] = QUOTE;
    if (this.ascii(value, true, false)) {
      this.ensure(1);
      this.buffer[this.position++] = QUOTE;
      return;
    }
    this.position = start;
    this.encoded(JSON.stringify(value));
  }

  /** A CSV field (RFC 4180): quoted, with quotes doubled, when it holds a comma, quote or line break. */
  csvField(value: string): void {
    const start = this.position;
    if (this.ascii(value, false, true)) return;
    this.position = start;
    this.encoded(/[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);
  }

  /** A number with exactly `digits` decimals (0–4), rounded half away from zero; digits written directly. */
  fixed(value: number, digits: number): void {
    const factor = POW10[digits];
    const scaled = Math.round(Math.abs(value) * factor);
    if (digits > 4 || scaled > Number.MAX_SAFE_INTEGER) return this.text(value.toFixed(digits));
    this.ensure(24);
    if (value < 0 && scaled !== 0) this.buffer[this.position++] = MINUS;
    const whole = Math.floor(scaled / factor);
    this.digits(whole);
    if (digits === 0) return;
    this.buffer[this.position++] = DOT;
    let fraction = scaled - whole * factor;
    for (let i = digits - 1; i >= 0; i--) {
      this.buffer[this.position + i] = ZERO + (fraction % 10);
      fraction = Math.floor(fraction / 10);
    }
    this.position += digits;
  }

  /** The bytes written, in a buffer of exactly their size. */
  bytes(): Uint8Array {
    return this.buffer.slice(0, this.position);
  }

  /** Writes a non-negative safe integer's decimal digits. */
  private digits(value: number): void {
    if (value < 10) {
      this.buffer[this.position++] = ZERO + value;
      return;
    }
    let length = 1;
    for (let rest = value; rest >= 10; rest = Math.floor(rest / 10)) length++;
    let at = this.position + length - 1;
    for (let rest = value; at >= this.position; rest = Math.floor(rest / 10)) this.buffer[at--] = ZERO + (rest % 10);
    this.position += length;
  }

  /**
   * Copies an ASCII string; false (with a partial write the caller discards) when it meets a non-ASCII
   * character, or a character that needs escaping in JSON, or quoting in CSV.
   */
  private ascii(value: string, json: boolean, csv: boolean): boolean {
    this.ensure(value.length);
    const buffer = this.buffer;
    let at = this.position;
    for (let i = 0; i < value.length; i++) {
      const code = value.charCodeAt(i);
      if (code >= 128) return false;
      if (json && (code < 32 || code === QUOTE || code === BACKSLASH)) return false;
      if (csv && (code === COMMA || code === QUOTE || code === 10 || code === 13)) return false;
      buffer[at++] = code;
    }
    this.position = at;
    return true;
  }

  private encoded(value: string): void {
    // UTF-8 needs at most 3 bytes per UTF-16 code unit.
    this.ensure(value.length * 3);
    this.position += encoder.encodeInto(value, this.buffer.subarray(this.position)).written;
  }

  private ensure(bytes: number): void {
    if (this.buffer.length - this.position >= bytes) return;
    let capacity = this.buffer.length * 2;
    while (capacity - this.position < bytes) capacity *= 2;
    const next = new Uint8Array(capacity);
    next.set(this.buffer.subarray(0, this.position));
    this.buffer = next;
  }
}
