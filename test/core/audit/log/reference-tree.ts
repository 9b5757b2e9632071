import { createHash } from 'node:crypto';

/**
 * RFC 9162 section 2.1 transcribed as literally as possible (MTH, PATH, PROOF and SUBPROOF over whole arrays of
 * leaf data, recomputing everything), for the tests alone: the log's own code is compared against it.
 */

const sha256 = (...parts: Uint8Array[]): Buffer => {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part);
  return hash.digest();
};

/** The largest power of two smaller than n. */
function k(n: number): number {
  let power = 1;
  while (power * 2 < n) power *= 2;
  return power;
}

export function mth(d: readonly Uint8Array[]): Buffer {
  const n = d.length;
  if (n === 0) return sha256();
  if (n === 1) return sha256(Buffer.from([0x00]), d[0]);
  return sha256(Buffer.from([0x01]), mth(d.slice(0, k(n))), mth(d.slice(k(n))));
}

export function path(m: number, d: readonly Uint8Array[]): Buffer[] {
  const n = d.length;
  if (n === 1) return [];
  if (m < k(n)) return [...path(m, d.slice(0, k(n))), mth(d.slice(k(n)))];
  return [...path(m - k(n), d.slice(k(n))), mth(d.slice(0, k(n)))];
}

export function proof(m: number, d: readonly Uint8Array[]): Buffer[] {
  return subproof(m, d, true);
}

function subproof(m: number, d: readonly Uint8Array[], b: boolean): Buffer[] {
  const n = d.length;
  if (m === n) return b ? [] : [mth(d)];
  if (m <= k(n)) return [...subproof(m, d.slice(0, k(n)), b), mth(d.slice(k(n)))];
  return [...subproof(m - k(n), d.slice(k(n)), false), mth(d.slice(0, k(n)))];
}
