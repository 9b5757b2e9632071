import type { ByteSink } from '../codegen/byte-sink.js';

/**
 * The Parquet encodings the direct encoder (direct-row-group.ts) writes, on JavaScript numbers: an INT64
 * value is a safe integer, written as two 32-bit halves, so that no cell becomes a BigInt.
 */

const TWO_32 = 2 ** 32;

/** An unsigned LEB128 varint of a non-negative safe integer (or an even one up to 2^54, as zigzag makes). */
export function varint(out: ByteSink, value: number): void {
  out.reserve(8);
  const buffer = out.buffer;
  let at = out.length;
  while (value >= 128) {
    buffer[at++] = (value % 128) | 128;
    value = Math.floor(value / 128);
  }
  buffer[at++] = value;
  out.length = at;
}

/** The largest magnitude whose zigzag mapping a number holds exactly (a negative one's is odd and twice as large). */
const ZIGZAG_EXACT = 2 ** 52;

/** A signed value zigzag-mapped (0, -1, 1, -2, … to 0, 1, 2, 3, …), as Thrift and the delta encoding store it. */
export const zigzag = (value: number): number => (value >= 0 ? value * 2 : -value * 2 - 1);

/** Bits to hold values from 0 to `max` (a safe integer). */
export function bitWidth(max: number): number {
  return max >= TWO_32 ? 64 - Math.clz32(Math.floor(max / TWO_32)) : 32 - Math.clz32(max);
}

/** Writes values of `width` bits, least significant bit first, as Parquet packs them. */
class BitPacker {
  private bits = 0;
  private pending = 0;

  constructor(private readonly out: ByteSink) {}

  /** A value of up to 24 bits: with fewer than 8 bits pending, all fit a 32-bit integer. */
  private small(value: number, width: number): void {
    this.pending = (this.pending | (value << this.bits)) >>> 0;
    this.bits += width;
    const out = this.out;
    while (this.bits >= 8) {
      out.buffer[out.length++] = this.pending & 255;
      this.pending >>>= 8;
      this.bits -= 8;
    }
  }

  put(value: number, width: number): void {
    if (width <= 24) return this.small(value, width);
    if (width <= 32) {
      this.small(value & 0xffff, 16);
      return this.small(value >>> 16, width - 16);
    }
    const high = Math.floor(value / TWO_32);
    this.put(value - high * TWO_32, 32);
    this.put(high, width - 32);
  }

  /** Pads the last byte with zero bits. */
  flush(): void {
    if (this.bits > 0) this.out.buffer[this.out.length++] = this.pending & 255;
    this.bits = 0;
    this.pending = 0;
  }
}

/** The shortest run of one value worth an RLE run rather than a place in a bit-packed group. */
const MIN_RUN = 8;

/**
 * The RLE/bit-packed hybrid of `count` values of `width` bits (definition levels, dictionary indexes,
 * booleans): runs of at least eight equal values as RLE runs, the rest in bit-packed groups of eight,
 * the last group padded with zeros (readers stop at the page's value count).
 */
export function hybrid(out: ByteSink, values: Int32Array | Uint8Array, count: number, width: number): void {
  const runBytes = Math.ceil(width / 8);
  out.reserve(16 + Math.ceil((count * width) / 8) + Math.ceil(count / MIN_RUN) * (runBytes + 4));
  const packer = new BitPacker(out);
  let i = 0;
  while (i < count) {
    const run = runLength(values, i, count);
    if (run >= MIN_RUN) {
      varint(out, run * 2);
      let value = values[i];
      for (let byte = 0; byte < runBytes; byte++, value >>>= 8) out.buffer[out.length++] = value & 255;
      i += run;
      continue;
    }
    // Groups of eight until a long run begins at a group's start.
    const start = i;
    let groups = 0;
    do {
      i += 8;
      groups++;
    } while (i < count && runLength(values, i, count) < MIN_RUN);
    varint(out, groups * 2 + 1);
    for (let at = start; at < start + groups * 8; at++) packer.put(at < count ? values[at] : 0, width);
    packer.flush();
  }
}

/** How many values from `start` equal the one at `start`, counting no further than MIN_RUN is needed to tell. */
function runLength(values: Int32Array | Uint8Array, start: number, count: number): number {
  const value = values[start];
  let end = start + 1;
  while (end < count && values[end] === value) end++;
  return end - start;
}

const BLOCK_VALUES = 128;
const MINIBLOCKS = 4;
const MINIBLOCK_VALUES = BLOCK_VALUES / MINIBLOCKS;

/**
 * DELTA_BINARY_PACKED of `count` safe integers: each block of 128 deltas stores its least delta and its
 * four miniblocks of 32 bit-packed at the width their largest needs. Timestamps in time order and amounts
 * of similar size store in a few bytes each instead of eight. Returns false, writing nothing the caller
 * keeps, when a delta is not exact as a number (values 2^53 apart), or the first value or a block's least delta
 * is beyond 2^52, where its zigzag form is not: the caller writes PLAIN instead.
 */
export function deltaBinaryPacked(out: ByteSink, values: Float64Array, count: number): boolean {
  if (count > 0 && !(Math.abs(values[0]) <= ZIGZAG_EXACT)) return false;
  const deltas = new Float64Array(BLOCK_VALUES);
  varint(out, BLOCK_VALUES);
  varint(out, MINIBLOCKS);
  varint(out, count);
  varint(out, zigzag(count > 0 ? values[0] : 0));
  const packer = new BitPacker(out);
  const widths = new Uint8Array(MINIBLOCKS);
  for (let first = 1; first < count; first += BLOCK_VALUES) {
    const n = Math.min(BLOCK_VALUES, count - first);
    let least = Infinity;
    for (let i = 0; i < n; i++) {
      const delta = values[first + i] - values[first + i - 1];
      if (!(Math.abs(delta) <= Number.MAX_SAFE_INTEGER)) return false;
      deltas[i] = delta;
      if (delta < least) least = delta;
    }
    for (let m = 0; m < MINIBLOCKS; m++) {
      let max = 0;
      for (let i = m * MINIBLOCK_VALUES; i < Math.min(n, (m + 1) * MINIBLOCK_VALUES); i++) {
        const above = deltas[i] - least;
        if (!(above <= Number.MAX_SAFE_INTEGER)) return false;
        if (above > max) max = above;
      }
      widths[m] = bitWidth(max);
    }
    if (!(Math.abs(least) <= ZIGZAG_EXACT)) return false;
    varint(out, zigzag(least));
    out.reserve(MINIBLOCKS + BLOCK_VALUES * 8);
    for (let m = 0; m < MINIBLOCKS; m++) out.buffer[out.length++] = widths[m];
    // Miniblocks past the last value are left out (their widths stay, as readers expect).
    for (let m = 0; m < MINIBLOCKS && m * MINIBLOCK_VALUES < n; m++) {
      for (let i = m * MINIBLOCK_VALUES; i < (m + 1) * MINIBLOCK_VALUES; i++)
        packer.put(i < n ? deltas[i] - least : 0, widths[m]);
      packer.flush();
    }
  }
  return true;
}

/** PLAIN INT64: each value's low then high 32 bits, little-endian (two's complement for negative values). */
export function plainInt64(out: ByteSink, values: Float64Array, count: number): void {
  out.reserve(count * 8);
  const view = out.view;
  let at = out.length;
  for (let i = 0; i < count; i++, at += 8) {
    const value = values[i];
    const high = Math.floor(value / TWO_32);
    view.setUint32(at, value - high * TWO_32, true);
    view.setInt32(at + 4, high, true);
  }
  out.length = at;
}

/** PLAIN INT32: each value, little-endian. */
export function plainInt32(out: ByteSink, values: Int32Array, count: number): void {
  out.reserve(count * 4);
  const view = out.view;
  let at = out.length;
  for (let i = 0; i < count; i++, at += 4) view.setInt32(at, values[i], true);
  out.length = at;
}

/**
 * DELTA_BYTE_ARRAY of `count` byte arrays laid end to end in `bytes` (`lengths` of each): each value's
 * prefix shared with the one before and its suffix's length, both delta-packed, then the suffixes. Keys
 * keep their prefix once (`txn_` is not stored per row) and codes of one length lose their length prefix.
 */
export function deltaByteArray(out: ByteSink, bytes: Uint8Array, lengths: Float64Array, count: number): void {
  const prefixes = new Float64Array(count);
  const suffixes = new Float64Array(count);
  let previous = 0;
  let at = 0;
  for (let i = 0; i < count; i++) {
    const length = lengths[i];
    const limit = i === 0 ? 0 : Math.min(length, lengths[i - 1]);
    let shared = 0;
    while (shared < limit && bytes[at + shared] === bytes[previous + shared]) shared++;
    prefixes[i] = shared;
    suffixes[i] = length - shared;
    previous = at;
    at += length;
  }
  deltaBinaryPacked(out, prefixes, count);
  deltaBinaryPacked(out, suffixes, count);
  out.reserve(at);
  const buffer = out.buffer;
  let to = out.length;
  at = 0;
  // Byte by byte: suffixes are a few bytes, shorter than a subarray and a copy cost to set up.
  for (let i = 0; i < count; i++) {
    const end = at + lengths[i];
    for (let from = at + prefixes[i]; from < end; from++) buffer[to++] = bytes[from];
    at = end;
  }
  out.length = to;
}
