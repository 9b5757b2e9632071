import type { Hash } from './hashes.js';
import { strictBase64 } from './note.js';
import { nodeHash, HASH_SIZE } from './hashes.js';

interface KnownStep {
  /** The hash of the subtree the walk stands on at this step. */
  hash: Hash;
  /** The proof element (base64) a verified proof combined it with. */
  sibling: string;
}

const isOdd = (n: number): boolean => n % 2 === 1;
const half = (n: number): number => Math.floor(n / 2);
/** A subtree of the walk: `fn` subtrees of 2^shift leaves to its left; unique in one tree size (fn < 2^47). */
const stepKey = (fn: number, shift: number): number => fn * 64 + shift;

/**
 * Checks many inclusion proofs against one tree, as RFC 9162 section 2.1.3.2 walks them, without hashing
 * again what an earlier proof established: once a walk reaches a subtree whose hash a verified proof
 * computed, the rest of its proof must be, element for element, what that proof had above it. A bundle's
 * events lie side by side in the tree, so most proofs then cost a leaf hash and one or two node hashes.
 * Every element of every proof is still checked: hashed, or compared with one that was.
 */
export class InclusionChecker {
  private readonly known = new Map<number, KnownStep>();

  constructor(
    private readonly size: number,
    private readonly root: Hash,
  ) {}

  check(index: number, leaf: Hash, proof: readonly string[]): boolean {
    if (!Number.isSafeInteger(index) || index < 0 || index >= this.size || leaf.length !== HASH_SIZE) return false;
    let fn = index;
    let sn = this.size - 1;
    let shift = 0;
    let r = leaf;
    const walked: [number, KnownStep][] = [];
    for (let i = 0; i < proof.length; i += 1) {
      const key = stepKey(fn, shift);
      const seen = this.known.get(key);
      if (seen) {
        if (!seen.hash.equals(r) || !this.followsKnown(fn, sn, shift, proof, i)) return false;
        this.remember(walked);
        return true;
      }
      if (sn === 0) return false;
      const p = strictBase64(proof[i]);
      if (p === null || p.length !== HASH_SIZE) return false;
      walked.push([key, { hash: r, sibling: proof[i] }]);
      if (isOdd(fn) || fn === sn) {
        r = nodeHash(p, r);
        while (!isOdd(fn) && fn !== 0) {
          fn = half(fn);
          sn = half(sn);
          shift += 1;
        }
      } else {
        r = nodeHash(r, p);
      }
      fn = half(fn);
      sn = half(sn);
      shift += 1;
    }
    if (sn !== 0 || !r.equals(this.root)) return false;
    this.remember(walked);
    return true;
  }

  /** Whether proof[from…] is exactly what the verified walk through this subtree had above it, to the root. */
  private followsKnown(fn: number, sn: number, shift: number, proof: readonly string[], from: number): boolean {
    for (let i = from; i < proof.length; i += 1) {
      if (sn === 0) return false;
      const seen = this.known.get(stepKey(fn, shift));
      if (!seen || seen.sibling !== proof[i]) return false;
      if (isOdd(fn) || fn === sn)
        while (!isOdd(fn) && fn !== 0) {
          fn = half(fn);
          sn = half(sn);
          shift += 1;
        }
      fn = half(fn);
      sn = half(sn);
      shift += 1;
    }
    return sn === 0;
  }

  private remember(walked: readonly [number, KnownStep][]): void {
    for (const [key, step] of walked) this.known.set(key, step);
  }
}
