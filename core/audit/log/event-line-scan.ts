/**
 * Where the parts of a bundle's event line lie, found by scanning its bytes: the fast path of verify-range.ts.
 * It takes only a line in the one spelling the export writes (canonical JSON, members in order, strings of
 * printable ASCII without escapes, counts as plain digits) and leaves every other line to `JSON.parse`, so that
 * what it takes, it reads exactly as `JSON.parse` would.
 */
export class EventLineParts {
  /** Where `"hash":` begins (its comma before it) and where `,"id":` begins: the hash covers the event without them. */
  hashMember = 0;
  idMember = 0;
  /** Where the event's value ends (its closing brace included) and `,"leaf_index":` begins. */
  eventEnd = 0;
  /** The 64 hex digits of the event's hash. */
  hash = 0;
  dataFrom = 0;
  dataTo = 0;
  /** The top-level members of `data` the balance rule reads, as [from, to) of their values (-1: absent). */
  creditsFrom = -1;
  creditsTo = -1;
  releasedFrom = -1;
  releasedTo = -1;
  modeFrom = -1;
  modeTo = -1;
  streamFrom = 0;
  streamTo = 0;
  typeFrom = 0;
  typeTo = 0;
  revision = 0;
  version = 0;
  leafIndex = 0;
  shared = 0;
  /** The [from, to) of each proof element's text, quotes excluded, `proofCount` of them. */
  readonly proof: number[] = [];
  proofCount = 0;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const MINUS = 0x2d;
const ZERO = 0x30;
const NINE = 0x39;
/** Deeper values are left to JSON.parse: no input can exhaust this scanner's stack. */
const MAX_DEPTH = 64;
/** Counts of at most this many digits are exact as numbers (below 2^53). */
const MAX_COUNT_DIGITS = 15;

const ascii = (text: string): Uint8Array => Uint8Array.from(text, (character) => character.charCodeAt(0));
const EVENT_DATA = ascii('{"event":{"data":');
const HASH = ascii(',"hash":"');
const ID = ascii('","id":');
const METADATA = ascii(',"metadata":');
const RECORDED_AT = ascii(',"recorded_at":');
const REVISION = ascii(',"revision":');
const STREAM = ascii(',"stream":');
const TYPE = ascii(',"type":');
const VERSION = ascii(',"version":');
const LEAF_INDEX = ascii('},"leaf_index":');
const PROOF = ascii(',"proof":[');
const SHARED = ascii(',"shared":');
const CREDITS_KEY = ascii('credits');
const RELEASED_KEY = ascii('released');
const MODE_KEY = ascii('mode');

function literal(bytes: Uint8Array, at: number, text: Uint8Array): boolean {
  if (at + text.length > bytes.length) return false;
  for (let i = 0; i < text.length; i += 1) if (bytes[at + i] !== text[i]) return false;
  return true;
}

/** After a string of printable ASCII without escapes starting at its quote; -1 for any other string. */
function stringEnd(bytes: Uint8Array, at: number, end: number): number {
  if (bytes[at] !== QUOTE) return -1;
  for (let i = at + 1; i < end; i += 1) {
    const byte = bytes[i];
    if (byte === QUOTE) return i + 1;
    if (byte < 0x20 || byte === BACKSLASH || byte >= 0x80) return -1;
  }
  return -1;
}

/** After a JSON number starting at `at` (RFC 8259's grammar); -1 if there is none. */
function numberEnd(bytes: Uint8Array, at: number, end: number): number {
  let i = at;
  if (bytes[i] === MINUS) i += 1;
  if (i >= end || bytes[i] < ZERO || bytes[i] > NINE) return -1;
  if (bytes[i] === ZERO) i += 1;
  else while (i < end && bytes[i] >= ZERO && bytes[i] <= NINE) i += 1;
  if (bytes[i] === 0x2e) {
    i += 1;
    const digits = i;
    while (i < end && bytes[i] >= ZERO && bytes[i] <= NINE) i += 1;
    if (i === digits) return -1;
  }
  if (bytes[i] === 0x65 || bytes[i] === 0x45) {
    i += 1;
    if (bytes[i] === 0x2b || bytes[i] === MINUS) i += 1;
    const digits = i;
    while (i < end && bytes[i] >= ZERO && bytes[i] <= NINE) i += 1;
    if (i === digits) return -1;
  }
  return i;
}

/** A count as the export writes it (digits, no leading zero, below 2^53), or -1. */
function count(bytes: Uint8Array, from: number, to: number): number {
  if (to <= from || to - from > MAX_COUNT_DIGITS || (bytes[from] === ZERO && to - from > 1)) return -1;
  let value = 0;
  for (let i = from; i < to; i += 1) {
    const byte = bytes[i];
    if (byte < ZERO || byte > NINE) return -1;
    value = value * 10 + (byte - ZERO);
  }
  return value;
}

function digitsEnd(bytes: Uint8Array, at: number, end: number): number {
  let i = at;
  while (i < end && bytes[i] >= ZERO && bytes[i] <= NINE) i += 1;
  return i;
}

/** After any JSON value without whitespace, its strings as `stringEnd` takes them; -1 otherwise. */
function valueEnd(bytes: Uint8Array, at: number, end: number, depth: number): number {
  const byte = bytes[at];
  if (byte === QUOTE) return stringEnd(bytes, at, end);
  if (byte === OPEN_BRACE) {
    if (depth >= MAX_DEPTH) return -1;
    let i = at + 1;
    if (bytes[i] === CLOSE_BRACE) return i + 1;
    for (;;) {
      i = stringEnd(bytes, i, end);
      if (i === -1 || bytes[i] !== COLON) return -1;
      i = valueEnd(bytes, i + 1, end, depth + 1);
      if (i === -1) return -1;
      if (bytes[i] === CLOSE_BRACE) return i + 1;
      if (bytes[i] !== COMMA) return -1;
      i += 1;
    }
  }
  if (byte === OPEN_BRACKET) {
    if (depth >= MAX_DEPTH) return -1;
    let i = at + 1;
    if (bytes[i] === CLOSE_BRACKET) return i + 1;
    for (;;) {
      i = valueEnd(bytes, i, end, depth + 1);
      if (i === -1) return -1;
      if (bytes[i] === CLOSE_BRACKET) return i + 1;
      if (bytes[i] !== COMMA) return -1;
      i += 1;
    }
  }
  if (byte === 0x74) return literal(bytes, at, TRUE) ? at + 4 : -1;
  if (byte === 0x66) return literal(bytes, at, FALSE) ? at + 5 : -1;
  if (byte === 0x6e) return literal(bytes, at, NULL) ? at + 4 : -1;
  return numberEnd(bytes, at, end);
}
const TRUE = ascii('true');
const FALSE = ascii('false');
const NULL = ascii('null');

/** -1, 0 or 1 as the key at [a, aEnd) sorts before, as, or after the one at [b, bEnd) (both ASCII). */
function compareKeys(bytes: Uint8Array, a: number, aEnd: number, b: number, bEnd: number): number {
  for (let i = 0; a + i < aEnd && b + i < bEnd; i += 1)
    if (bytes[a + i] !== bytes[b + i]) return bytes[a + i] < bytes[b + i] ? -1 : 1;
  return Math.sign(aEnd - a - (bEnd - b));
}

/**
 * `data`'s value, recording where the members the balance rule reads lie. An object's members must come in
 * strictly increasing order, so that none is written twice (JSON.parse would keep the last).
 */
function dataEnd(bytes: Uint8Array, at: number, end: number, parts: EventLineParts): number {
  parts.creditsFrom = parts.releasedFrom = parts.modeFrom = -1;
  parts.creditsTo = parts.releasedTo = parts.modeTo = -1;
  if (bytes[at] !== OPEN_BRACE) return valueEnd(bytes, at, end, 1);
  let i = at + 1;
  if (bytes[i] === CLOSE_BRACE) return i + 1;
  let previousKey = -1;
  let previousKeyEnd = -1;
  for (;;) {
    const keyEnd = stringEnd(bytes, i, end);
    if (keyEnd === -1 || bytes[keyEnd] !== COLON) return -1;
    if (previousKey !== -1 && compareKeys(bytes, previousKey, previousKeyEnd, i + 1, keyEnd - 1) >= 0) return -1;
    previousKey = i + 1;
    previousKeyEnd = keyEnd - 1;
    const valueFrom = keyEnd + 1;
    const valueTo = valueEnd(bytes, valueFrom, end, 2);
    if (valueTo === -1) return -1;
    if (isKey(bytes, i + 1, keyEnd - 1, CREDITS_KEY)) {
      parts.creditsFrom = valueFrom;
      parts.creditsTo = valueTo;
    } else if (isKey(bytes, i + 1, keyEnd - 1, RELEASED_KEY)) {
      parts.releasedFrom = valueFrom;
      parts.releasedTo = valueTo;
    } else if (isKey(bytes, i + 1, keyEnd - 1, MODE_KEY)) {
      parts.modeFrom = valueFrom;
      parts.modeTo = valueTo;
    }
    i = valueTo;
    if (bytes[i] === CLOSE_BRACE) return i + 1;
    if (bytes[i] !== COMMA) return -1;
    i += 1;
  }
}

const isKey = (bytes: Uint8Array, from: number, to: number, key: Uint8Array): boolean =>
  to - from === key.length && literal(bytes, from, key);

const isHexDigit = (byte: number): boolean => (byte >= ZERO && byte <= NINE) || (byte >= 0x61 && byte <= 0x66);

/**
 * Scans the line at [from, to) (its newline excluded) into `parts`. False for any line not in the export's own
 * spelling: that one is for `JSON.parse` to read, and the fields of `parts` are then meaningless.
 */
export function scanEventLine(bytes: Uint8Array, from: number, to: number, parts: EventLineParts): boolean {
  if (!literal(bytes, from, EVENT_DATA)) return false;
  parts.dataFrom = from + EVENT_DATA.length;
  let i = dataEnd(bytes, parts.dataFrom, to, parts);
  if (i === -1) return false;
  parts.dataTo = i;
  parts.hashMember = i;
  if (!literal(bytes, i, HASH)) return false;
  i += HASH.length;
  parts.hash = i;
  for (let j = 0; j < 64; j += 1) if (!isHexDigit(bytes[i + j])) return false;
  i += 64;
  if (!literal(bytes, i, ID)) return false;
  parts.idMember = i + 1;
  i = stringEnd(bytes, i + ID.length, to);
  if (i === -1 || !literal(bytes, i, METADATA) || bytes[i + METADATA.length] !== OPEN_BRACE) return false;
  i = valueEnd(bytes, i + METADATA.length, to, 1);
  if (i === -1 || !literal(bytes, i, RECORDED_AT)) return false;
  i = stringEnd(bytes, i + RECORDED_AT.length, to);
  if (i === -1 || !literal(bytes, i, REVISION)) return false;
  i += REVISION.length;
  let digits = digitsEnd(bytes, i, to);
  parts.revision = count(bytes, i, digits);
  if (parts.revision === -1 || !literal(bytes, digits, STREAM)) return false;
  parts.streamFrom = digits + STREAM.length + 1;
  i = stringEnd(bytes, digits + STREAM.length, to);
  if (i === -1 || !literal(bytes, i, TYPE)) return false;
  parts.streamTo = i - 1;
  parts.typeFrom = i + TYPE.length + 1;
  i = stringEnd(bytes, i + TYPE.length, to);
  if (i === -1 || !literal(bytes, i, VERSION)) return false;
  parts.typeTo = i - 1;
  i += VERSION.length;
  digits = digitsEnd(bytes, i, to);
  parts.version = count(bytes, i, digits);
  if (parts.version < 1 || !literal(bytes, digits, LEAF_INDEX)) return false;
  parts.eventEnd = digits + 1;
  i = digits + LEAF_INDEX.length;
  digits = digitsEnd(bytes, i, to);
  parts.leafIndex = count(bytes, i, digits);
  if (parts.leafIndex === -1 || !literal(bytes, digits, PROOF)) return false;
  i = digits + PROOF.length;
  parts.proofCount = 0;
  if (bytes[i] === CLOSE_BRACKET) i += 1;
  else
    for (;;) {
      const elementEnd = stringEnd(bytes, i, to);
      if (elementEnd === -1) return false;
      parts.proof[2 * parts.proofCount] = i + 1;
      parts.proof[2 * parts.proofCount + 1] = elementEnd - 1;
      parts.proofCount += 1;
      i = elementEnd;
      if (bytes[i] === CLOSE_BRACKET) {
        i += 1;
        break;
      }
      if (bytes[i] !== COMMA) return false;
      i += 1;
    }
  if (!literal(bytes, i, SHARED)) return false;
  i += SHARED.length;
  digits = digitsEnd(bytes, i, to);
  parts.shared = count(bytes, i, digits);
  return parts.shared !== -1 && digits === to - 1 && bytes[digits] === CLOSE_BRACE;
}

/** A canonical integer's value (`-`, then digits without a leading zero, exact as a number); null otherwise. */
export function integerAt(bytes: Uint8Array, from: number, to: number): number | null {
  const negative = bytes[from] === MINUS;
  const value = count(bytes, negative ? from + 1 : from, to);
  if (value === -1 || (negative && value === 0)) return null;
  return negative ? -value : value;
}

/** Whether [from, to) is a string without escapes (its quotes included) spelling `text`. */
export function isStringOf(bytes: Uint8Array, from: number, to: number, text: Uint8Array): boolean {
  return to - from === text.length + 2 && bytes[from] === QUOTE && literal(bytes, from + 1, text);
}
