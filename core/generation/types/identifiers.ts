import { fmix32, mix } from '../random/prng.js';
import { defineDataType } from './data-type.js';

const HEX = '0123456789abcdef';
const BYTE_HEX = Array.from({ length: 256 }, (_, byte) => HEX[byte >>> 4] + HEX[byte & 15]);

function hex8(value: number): string {
  return (
    BYTE_HEX[value >>> 24] + BYTE_HEX[(value >>> 16) & 255] + BYTE_HEX[(value >>> 8) & 255] + BYTE_HEX[value & 255]
  );
}

/**
 * A row's key as a pure function of (table seed, row index): 16 hex digits whose low half is a bijective
 * scramble of the index, so keys are unique within a table (up to 2^32 rows) yet look random, and any
 * table can name the key of any parent row from its index alone. Built with one String.fromCharCode
 * call (one flat string) rather than a chain of concatenations: keys are written for every row.
 */
const HEX_CODES = [...HEX].map((char) => char.charCodeAt(0));
const keyCodes: number[] = [];

const keyLow = (tableSeed: number, index: number) => (fmix32(index ^ tableSeed) ^ (tableSeed >>> 7)) >>> 0;

export function rowKey(prefix: string, tableSeed: number, index: number): string {
  const low = keyLow(tableSeed, index);
  const high = mix(tableSeed, low);
  keyCodes.length = prefix.length + 17;
  for (let i = 0; i < prefix.length; i++) keyCodes[i] = prefix.charCodeAt(i);
  let at = prefix.length;
  keyCodes[at++] = 95; // _
  for (let shift = 28; shift >= 0; shift -= 4) keyCodes[at++] = HEX_CODES[(high >>> shift) & 15];
  for (let shift = 28; shift >= 0; shift -= 4) keyCodes[at++] = HEX_CODES[(low >>> shift) & 15];
  return String.fromCharCode.apply(null, keyCodes);
}

/** "00" to "ff" as little-endian 16-bit words: a key's 16 digits are four stores of four bytes. */
const HEX_PAIR_WORDS = new Uint16Array(256);
for (let byte = 0; byte < 256; byte++) HEX_PAIR_WORDS[byte] = HEX_CODES[byte >>> 4] | (HEX_CODES[byte & 15] << 8);

/** The digits of a key, after its prefix and `_`. */
export const KEY_DIGITS = 16;

/**
 * Writes the digits of rowKey(…, tableSeed, index) at `at` of a buffer through `view`, and returns the
 * position after them: a row writer prints a key column from the row's index, without a string.
 */
export function keyDigits(view: DataView, at: number, tableSeed: number, index: number): number {
  const low = keyLow(tableSeed, index);
  hexWords(view, at, mix(tableSeed, low));
  hexWords(view, at + 8, low);
  return at + KEY_DIGITS;
}

function hexWords(view: DataView, at: number, value: number): void {
  view.setUint32(at, HEX_PAIR_WORDS[value >>> 24] | (HEX_PAIR_WORDS[(value >>> 16) & 255] << 16), true);
  view.setUint32(at + 4, HEX_PAIR_WORDS[(value >>> 8) & 255] | (HEX_PAIR_WORDS[value & 255] << 16), true);
}

export const id = defineDataType<{ prefix: string }>({
  name: 'id',
  description:
    "The table's key: a prefix and 16 hexadecimal digits, unique within the table and derived from the row's index " +
    'and the seed, so other tables reference it without reading it.',
  json_type: 'string',
  params: { required: ['prefix'], properties: { prefix: { type: 'string', pattern: '^[a-z][a-z0-9]{0,11}$' } } },
  overridable: [],
  example: 'card_3f9a0c1be47d2a65',
  compile:
    ({ prefix }, env) =>
    (_rng, _row, index) =>
      rowKey(prefix, env.tableSeed, index),
});

export const reference = defineDataType<{ table: string }>({
  name: 'reference',
  description:
    "The key of a row of another table of the same pack; the row it points at always exists in that table's output " +
    'for the same plan.',
  json_type: 'string',
  params: { required: ['table'], properties: { table: { type: 'string' } } },
  overridable: [],
  example: 'chd_a1b2c3d4e5f60718',
  // References are resolved by the engine from the plan's row counts, not by a sampler of their own.
  compile: () => () => {
    throw new Error('reference columns are filled by the engine');
  },
});

export const uuid = defineDataType<Record<string, never>>({
  name: 'uuid',
  description: 'A random RFC 9562 version 4 UUID.',
  json_type: 'string',
  format: 'uuid',
  params: {},
  overridable: [],
  example: '5f0c6a2e-8d7b-4c1e-9a3f-2b6d8e4f1a7c',
  compile: () => (rng) => {
    const a = hex8(rng.u32());
    const b = hex8(rng.u32());
    const c = hex8(rng.u32());
    const d = hex8(rng.u32());
    return `${a}-${b.slice(0, 4)}-4${b.slice(5)}-${HEX[8 + (rng.u32() & 3)]}${c.slice(1, 4)}-${c.slice(4)}${d}`;
  },
});

export const code = defineDataType<{ length: number; alphabet?: string }>({
  name: 'code',
  description:
    'A fixed-length code from an alphabet (default digits and upper-case letters): authorisation codes, references.',
  json_type: 'string',
  params: {
    required: ['length'],
    properties: { length: { type: 'integer', minimum: 1, maximum: 64 }, alphabet: { type: 'string', minLength: 2 } },
  },
  overridable: [],
  example: '4XK29Q',
  compile:
    ({ length, alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ' }) =>
    (rng) =>
      rng.chars(alphabet, length),
});
