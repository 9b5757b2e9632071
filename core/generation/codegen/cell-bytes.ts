import type { ByteSink } from './byte-sink.js';
import { isoDateOfDay, isoTimestamp } from '../types/time-format.js';

/**
 * Numbers and instants written as ASCII digits straight into a ByteSink's buffer. The text is the same as
 * String(n), formatFixed and isoTimestamp give, without building a string per cell: the writers spent
 * more on making, flattening and copying those short strings than on the values themselves.
 *
 * Each writer takes the sink's buffer and the position to write at (the row writer keeps both in locals
 * and has made room for the cell's bound, given below, before the row: one check per row instead of one
 * per cell). It returns the position after the cell, or -1 when the value is beyond its fast path and
 * was written through the sink instead (out.length then says where the row goes on).
 */
const DAY_MS = 86_400_000;
const MAX_SAFE = Number.MAX_SAFE_INTEGER;
const INT32_LIMIT = 2_147_483_648;

/** Room for writeNumber's fast path: a sign and the 16 digits of a safe integer. */
export const NUMBER_BYTES = 17;
/** Room for writeFixed's fast path: a sign, 16 digits, the point and 4 decimals. */
export const FIXED_BYTES = 22;
/** Room for writeIsoTimestamp's fast path (years 0000-9999). */
export const TIMESTAMP_BYTES = 24;

/** "00" to "99" as byte pairs: digits are written two at a time (half the divisions). */
const DIGIT_PAIRS = new Uint8Array(200);
for (let i = 0; i < 100; i++) {
  DIGIT_PAIRS[2 * i] = 48 + Math.floor(i / 10);
  DIGIT_PAIRS[2 * i + 1] = 48 + (i % 10);
}

function digitCount(value: number): number {
  let digits = 1;
  for (let limit = 10; value >= limit; limit *= 10) digits++;
  return digits;
}

/** A non-negative safe integer's digits ending just before `end`; int32 arithmetic once the rest fits in it. */
function digitsBefore(buffer: Uint8Array, end: number, value: number): void {
  let at = end;
  while (value >= INT32_LIMIT) {
    const next = Math.floor(value / 10);
    buffer[--at] = 48 + (value - next * 10);
    value = next;
  }
  let rest = value | 0;
  while (rest >= 100) {
    const next = (rest / 100) | 0;
    const pair = (rest - next * 100) << 1;
    buffer[--at] = DIGIT_PAIRS[pair + 1];
    buffer[--at] = DIGIT_PAIRS[pair];
    rest = next;
  }
  if (rest >= 10) {
    buffer[at - 1] = DIGIT_PAIRS[(rest << 1) + 1];
    buffer[at - 2] = DIGIT_PAIRS[rest << 1];
  } else buffer[at - 1] = 48 + rest;
}

/** `value` as JSON writes it (String(value) for a safe integer; the runtime's own text otherwise). */
export function writeNumber(out: ByteSink, buffer: Uint8Array, at: number, value: number): number {
  if (!Number.isInteger(value) || value > MAX_SAFE || value < -MAX_SAFE) {
    out.length = at;
    out.ascii(String(value));
    return -1;
  }
  if (value < 0) {
    buffer[at++] = 45;
    value = -value;
  }
  const end = at + digitCount(value);
  digitsBefore(buffer, end, value);
  return end;
}

const POW10 = [1, 10, 100, 1000, 10000];

/** `value` with exactly `digits` decimals (0–4), the same text as formatFixed. */
export function writeFixed(out: ByteSink, buffer: Uint8Array, at: number, value: number, digits: number): number {
  const factor = POW10[digits];
  const scaled = Math.round(Math.abs(value) * factor);
  if (digits > 4 || scaled > MAX_SAFE) {
    out.length = at;
    out.ascii(value.toFixed(digits));
    return -1;
  }
  if (value < 0 && scaled !== 0) buffer[at++] = 45;
  if (digits === 0) {
    const end = at + digitCount(scaled);
    digitsBefore(buffer, end, scaled);
    return end;
  }
  const whole = Math.floor(scaled / factor);
  const point = at + digitCount(whole);
  digitsBefore(buffer, point, whole);
  buffer[point] = 46;
  let fraction = scaled - whole * factor;
  for (let i = point + digits; i > point; i--) {
    const next = Math.floor(fraction / 10);
    buffer[i] = 48 + (fraction - next * 10);
    fraction = next;
  }
  return point + digits + 1;
}

/**
 * A timestamp's 24 bytes are written in seven little-endian stores (out.view) rather than 24 byte stores:
 * "00" to "99" as 16-bit words, and YYYY-MM-DD of recent days as the words YYYY, -MM- and DD,
 * direct-mapped by day number (a chunk's rows span few days).
 */
const DIGIT_PAIR_WORDS = new Uint16Array(100);
for (let i = 0; i < 100; i++) DIGIT_PAIR_WORDS[i] = DIGIT_PAIRS[2 * i] | (DIGIT_PAIRS[2 * i + 1] << 8);
const DATE_SLOTS = 4096;
const dateSlotDays = new Float64Array(DATE_SLOTS).fill(NaN);
const dateWords = new Uint32Array(DATE_SLOTS * 2);
const dateDays = new Uint16Array(DATE_SLOTS);
const littleEndian = (text: string, from: number, bytes: number) => {
  let word = 0;
  for (let i = bytes - 1; i >= 0; i--) word = word * 256 + text.charCodeAt(from + i);
  return word;
};

function cacheDate(slot: number, day: number): void {
  const date = isoDateOfDay(day);
  dateSlotDays[slot] = day;
  if (date.length !== 10) {
    dateWords[slot * 2 + 1] = 0; // not YYYY-MM-DD: written the slow way
    return;
  }
  dateWords[slot * 2] = littleEndian(date, 0, 4);
  dateWords[slot * 2 + 1] = littleEndian(date, 4, 4);
  dateDays[slot] = littleEndian(date, 8, 2);
}

/**
 * YYYY-MM-DDTHH:MM:SS.mmmZ of an instant in ms since the epoch (fractions of a ms dropped), the same
 * text as isoTimestamp: the date from the cache of days, the time by int32 arithmetic in pairs of digits.
 */
export function writeIsoTimestamp(out: ByteSink, buffer: Uint8Array, at: number, ms: number): number {
  const whole = Math.floor(ms);
  const day = Math.floor(whole / DAY_MS);
  const slot = day & (DATE_SLOTS - 1);
  if (dateSlotDays[slot] !== day) cacheDate(slot, day);
  const monthWord = dateWords[slot * 2 + 1];
  if ((monthWord & 255) !== 45) {
    // a year of more than four digits
    out.length = at;
    out.ascii(isoTimestamp(ms));
    return -1;
  }
  const view = out.view;
  view.setUint32(at, dateWords[slot * 2], true);
  view.setUint32(at + 4, monthWord, true);
  view.setUint16(at + 8, dateDays[slot], true);
  const rest = (whole - day * DAY_MS) | 0;
  const seconds = (rest / 1000) | 0;
  const millis = rest - seconds * 1000;
  const minutes = (seconds / 60) | 0;
  const hours = (minutes / 60) | 0;
  const mm = DIGIT_PAIR_WORDS[minutes - hours * 60];
  const ss = DIGIT_PAIR_WORDS[seconds - minutes * 60];
  const hundreds = (millis / 100) | 0;
  const below = DIGIT_PAIR_WORDS[millis - hundreds * 100];
  view.setUint32(at + 10, 84 | (DIGIT_PAIR_WORDS[hours] << 8) | (58 << 24), true); // Thh:
  view.setUint32(at + 14, mm | (58 << 16) | ((ss & 255) << 24), true); // mm:s
  view.setUint32(at + 18, (ss >>> 8) | (46 << 8) | ((48 + hundreds) << 16) | ((below & 255) << 24), true); // s.mm
  view.setUint16(at + 22, (below >>> 8) | (90 << 8), true); // mZ
  return at + TIMESTAMP_BYTES;
}
