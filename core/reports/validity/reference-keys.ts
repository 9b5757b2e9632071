import { rowKey } from '../../generation/types/identifiers.js';

/** The inverse of MurmurHash3's finaliser (fmix32): each step undone in reverse order. */
export function unfmix32(value: number): number {
  let h = value >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x7ed1b41d);
  h ^= (h >>> 13) ^ (h >>> 26);
  h = Math.imul(h, 0xa5cb9243);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * The row of its table a key names, or -1 when no row of `rows` has it: the index is recovered from the key's
 * low half (a bijective scramble of it, identifiers.ts), and the whole key must then be that row's.
 */
export function rowOfKey(key: string, prefix: string, tableSeed: number, rows: number): number {
  if (key.length !== prefix.length + 17 || !key.startsWith(`${prefix}_`)) return -1;
  const low = Number.parseInt(key.slice(-8), 16);
  if (!Number.isInteger(low)) return -1;
  const index = (unfmix32((low ^ (tableSeed >>> 7)) >>> 0) ^ tableSeed) >>> 0;
  return index < rows && rowKey(prefix, tableSeed, index) === key ? index : -1;
}
