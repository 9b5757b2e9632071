import { fmix32, mix } from '../prng.js';
import { defineDataType } from './data-type.js';

const HEX = '0123456789abcdef';
const BYTE_HEX = Array.from({ length: 256 }, (_, byte) => HEX[byte >>> 4] + HEX[byte & 15]);

function hex8(value: number): string {
  return BYTE_HEX[value >>> 24] + BYTE_HEX[(value >>> 16) & 255] + BYTE_HEX[(value >>> 8) & 255] + BYTE_HEX[value & 255];
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

/** The bytes writeRowKey writes: the prefix, `_`, 16 digits, and the quotes of a JSON string. */
export const rowKeyBytes = (prefix: Uint8Array, quoted: boolean) => prefix.length + 17 + (quoted ? 2 : 0);

/**
 * Writes rowKey(prefix, tableSeed, index) as a JSON string (`quoted`) or bare at `at` of a buffer (and
 * `view`, the same bytes) with room for rowKeyBytes, and returns the position after it: a table's own
 * key needs no string when the writer prints it from the row's index.
 */
export function writeRowKey(buffer: Uint8Array, view: DataView, at: number, prefix: Uint8Array, tableSeed: number, index: number, quoted: boolean): number {
  const low = keyLow(tableSeed, index);
  const high = mix(tableSeed, low);
  if (quoted) buffer[at++] = 34;
  for (let i = 0; i < prefix.length; i++) buffer[at++] = prefix[i];
  buffer[at] = 95; // _
  hexWords(view, at + 1, high);
  hexWords(view, at + 9, low);
  at += 17;
  if (quoted) buffer[at++] = 34;
  return at;
}

function hexWords(view: DataView, at: number, value: number): void {
  view.setUint32(at, HEX_PAIR_WORDS[value >>> 24] | (HEX_PAIR_WORDS[(value >>> 16) & 255] << 16), true);
  view.setUint32(at + 4, HEX_PAIR_WORDS[(value >>> 8) & 255] | (HEX_PAIR_WORDS[value & 255] << 16), true);
}

export const id = defineDataType<{ prefix: string }>({
  name: 'id',
  description: "The table's key: a prefix and 16 hexadecimal digits, unique within the table and derived from the row's index and the seed, so other tables reference it without reading it.",
  json_type: 'string',
  params: { required: ['prefix'], properties: { prefix: { type: 'string', pattern: '^[a-z][a-z0-9]{0,11}$' } } },
  overridable: [],
  example: 'card_3f9a0c1be47d2a65',
  compile: ({ prefix }, env) => (_rng, _row, index) => rowKey(prefix, env.tableSeed, index),
});

export const reference = defineDataType<{ table: string }>({
  name: 'reference',
  description: "The key of a row of another table of the same pack; the row it points at always exists in that table's output for the same plan.",
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
  description: 'A fixed-length code from an alphabet (default digits and upper-case letters): authorisation codes, references.',
  json_type: 'string',
  params: { required: ['length'], properties: { length: { type: 'integer', minimum: 1, maximum: 64 }, alphabet: { type: 'string', minLength: 2 } } },
  overridable: [],
  example: '4XK29Q',
  compile: ({ length, alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ' }) => (rng) => rng.chars(alphabet, length),
});
