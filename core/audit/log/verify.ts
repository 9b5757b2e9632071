import { HASH_SIZE, nodeHash, type Hash } from './hashes.js';

/**
 * Proof verification as RFC 9162 sections 2.1.3.2 and 2.1.4.2 write it. Sizes and indexes may exceed 2^32,
 * so halving is arithmetic, not a shift.
 */

const isOdd = (n: number): boolean => n % 2 === 1;
const half = (n: number): number => Math.floor(n / 2);
const isHash = (hash: Uint8Array): boolean => hash.length === HASH_SIZE;
const isPowerOfTwo = (n: number): boolean => n > 0 && 2 ** Math.round(Math.log2(n)) === n;

/** The root an inclusion proof leads to from a leaf; null if it cannot be a proof of that leaf in that size. */
export function rootFromInclusionProof(index: number, size: number, leaf: Hash, proof: readonly Hash[]): Hash | null {
  if (!Number.isSafeInteger(index) || !Number.isSafeInteger(size) || index < 0 || index >= size) return null;
  if (!isHash(leaf) || !proof.every(isHash)) return null;
  let fn = index;
  let sn = size - 1;
  let r = leaf;
  for (const p of proof) {
    if (sn === 0) return null;
    if (isOdd(fn) || fn === sn) {
      r = nodeHash(p, r);
      if (!isOdd(fn))
        while (!isOdd(fn) && fn !== 0) {
          fn = half(fn);
          sn = half(sn);
        }
    } else {
      r = nodeHash(r, p);
    }
    fn = half(fn);
    sn = half(sn);
  }
  return sn === 0 ? r : null;
}

export function verifyInclusion(index: number, size: number, leaf: Hash, proof: readonly Hash[], root: Hash): boolean {
  const computed = rootFromInclusionProof(index, size, leaf, proof);
  return computed !== null && computed.equals(root);
}

/** Whether the tree of `toSize` leaves (root `toRoot`) extends the tree of `fromSize` leaves (root `fromRoot`). */
export function verifyConsistency(
  fromSize: number,
  toSize: number,
  proof: readonly Hash[],
  fromRoot: Hash,
  toRoot: Hash,
): boolean {
  if (!Number.isSafeInteger(fromSize) || !Number.isSafeInteger(toSize) || fromSize < 0 || fromSize > toSize)
    return false;
  if (!proof.every(isHash)) return false;
  if (fromSize === toSize) return proof.length === 0 && fromRoot.equals(toRoot);
  // Every tree extends the empty one.
  if (fromSize === 0) return proof.length === 0;
  if (proof.length === 0) return false;
  // The old tree is a complete subtree of the new one: its root is the first step of the path.
  const path = isPowerOfTwo(fromSize) ? [fromRoot, ...proof] : proof;
  let fn = fromSize - 1;
  let sn = toSize - 1;
  while (isOdd(fn)) {
    fn = half(fn);
    sn = half(sn);
  }
  let fr = path[0];
  let sr = path[0];
  for (const c of path.slice(1)) {
    if (sn === 0) return false;
    if (isOdd(fn) || fn === sn) {
      fr = nodeHash(c, fr);
      sr = nodeHash(c, sr);
      if (!isOdd(fn))
        while (!isOdd(fn) && fn !== 0) {
          fn = half(fn);
          sn = half(sn);
        }
    } else {
      sr = nodeHash(sr, c);
    }
    fn = half(fn);
    sn = half(sn);
  }
  return sn === 0 && fr.equals(fromRoot) && sr.equals(toRoot);
}
