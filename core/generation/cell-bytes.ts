import type { ByteSink } from './byte-sink.js';
import { isoDateOfDay, isoTimestamp } from './time-format.js';

/**
 * Numbers and instants written as ASCII digits straight into a ByteSink. The text is the same as
 * String(n), formatFixed and isoTimestamp give, without building a string per cell: the writers spent
 * more on making, flattening and copying those short strings than on the values themselves.
 */
const DAY_MS = 86_400_000;
const MAX_SAFE = Number.MAX_SAFE_INTEGER;

/** A non-negative safe integer's digits. */
function writeDigits(out: ByteSink, value: number): void {
  let digits = 1;
  for (let limit = 10; value >= limit; limit *= 10) digits++;
  out.reserve(digits);
  const buffer = out.buffer;
  let at = out.length + digits;
  out.length = at;
  let rest = value;
  do {
    const next = Math.floor(rest / 10);
    buffer[--at] = 48 + (rest - next * 10);
    rest = next;
  } while (rest > 0);
}

/** `value` as JSON writes it (String(value) for a safe integer; the runtime's own text otherwise). */
export function writeNumber(out: ByteSink, value: number): void {
  if (Number.isInteger(value) && value <= MAX_SAFE && value >= -MAX_SAFE) {
    if (value < 0) {
      out.reserve(1);
      out.buffer[out.length++] = 45;
      value = -value;
    }
    writeDigits(out, value);
  } else out.ascii(String(value));
}

const POW10 = [1, 10, 100, 1000, 10000];

/** `value` with exactly `digits` decimals (0–4), the same text as formatFixed. */
export function writeFixed(out: ByteSink, value: number, digits: number): void {
  const factor = POW10[digits];
  const scaled = Math.round(Math.abs(value) * factor);
  if (digits > 4 || scaled > MAX_SAFE) return out.ascii(value.toFixed(digits));
  if (value < 0 && scaled !== 0) {
    out.reserve(1);
    out.buffer[out.length++] = 45;
  }
  if (digits === 0) return writeDigits(out, scaled);
  const whole = Math.floor(scaled / factor);
  writeDigits(out, whole);
  out.reserve(digits + 1);
  const buffer = out.buffer;
  let at = out.length + digits + 1;
  out.length = at;
  let fraction = scaled - whole * factor;
  for (let i = 0; i < digits; i++) {
    const next = Math.floor(fraction / 10);
    buffer[--at] = 48 + (fraction - next * 10);
    fraction = next;
  }
  buffer[--at] = 46;
}

/** YYYY-MM-DD of recent days as bytes, direct-mapped by day number (a chunk's rows span few days). */
const DATE_BYTES = 10;
const DATE_SLOTS = 4096;
const dateSlotDays = new Float64Array(DATE_SLOTS).fill(NaN);
const dateBytes = new Uint8Array(DATE_SLOTS * DATE_BYTES);

function cacheDate(slot: number, day: number): void {
  const date = isoDateOfDay(day);
  dateSlotDays[slot] = day;
  if (date.length !== DATE_BYTES) {
    dateBytes[slot * DATE_BYTES + 4] = 0; // not YYYY-MM-DD: written the slow way
    return;
  }
  for (let i = 0; i < DATE_BYTES; i++) dateBytes[slot * DATE_BYTES + i] = date.charCodeAt(i);
}

/**
 * YYYY-MM-DDTHH:MM:SS.mmmZ of an instant in ms since the epoch (fractions of a ms dropped), the same
 * text as isoTimestamp: the date's bytes from a cache of days, the time by arithmetic.
 */
export function writeIsoTimestamp(out: ByteSink, ms: number): void {
  const whole = Math.floor(ms);
  const day = Math.floor(whole / DAY_MS);
  let rest = whole - day * DAY_MS;
  out.reserve(DATE_BYTES + 14);
  const buffer = out.buffer;
  let at = out.length;
  const slot = day & (DATE_SLOTS - 1);
  if (dateSlotDays[slot] !== day) cacheDate(slot, day);
  if (dateBytes[slot * DATE_BYTES + 4] !== 45) return out.ascii(isoTimestamp(ms)); // a year of more than four digits
  for (let i = slot * DATE_BYTES, end = i + DATE_BYTES; i < end; i++) buffer[at++] = dateBytes[i];
  const hours = Math.floor(rest / 3_600_000);
  rest -= hours * 3_600_000;
  const minutes = Math.floor(rest / 60_000);
  rest -= minutes * 60_000;
  const seconds = Math.floor(rest / 1000);
  const millis = rest - seconds * 1000;
  const hoursTens = Math.floor(hours / 10);
  const minutesTens = Math.floor(minutes / 10);
  const secondsTens = Math.floor(seconds / 10);
  const hundreds = Math.floor(millis / 100);
  const tens = Math.floor(millis / 10) - hundreds * 10;
  buffer[at] = 84; // T
  buffer[at + 1] = 48 + hoursTens;
  buffer[at + 2] = 48 + hours - hoursTens * 10;
  buffer[at + 3] = 58; // :
  buffer[at + 4] = 48 + minutesTens;
  buffer[at + 5] = 48 + minutes - minutesTens * 10;
  buffer[at + 6] = 58;
  buffer[at + 7] = 48 + secondsTens;
  buffer[at + 8] = 48 + seconds - secondsTens * 10;
  buffer[at + 9] = 46; // .
  buffer[at + 10] = 48 + hundreds;
  buffer[at + 11] = 48 + tens;
  buffer[at + 12] = 48 + millis - hundreds * 100 - tens * 10;
  buffer[at + 13] = 90; // Z
  out.length = at + 14;
}
