import { hash } from 'node:crypto';
import { HASH_SIZE, type Hash } from './hashes.js';

/** The characters that may end 32 bytes in base64 before its `=`: the last one carries two bits only. */
const LAST_CHARACTERS = 'AEIMQUYcgkosw048';

// A node's input, 0x01 ‖ left ‖ right, written in place: hashes are held as latin1 strings of their 32 bytes, which
// `hash` returns at a third of the cost of a Buffer (measured).
const nodeInput = Buffer.alloc(1 + 2 * HASH_SIZE);
nodeInput[0] = 0x01;

/**
 * Writes the hash a proof element spells at `at` of the node's input; false, unless the element is the one
 * spelling of 32 bytes in base64. Node's decoder skips what is not base64 (fewer bytes then), and reads `-` and
 * `_` as `+` and `/`: refused here.
 */
function writeElement(element: string, at: number): boolean {
  if (element.length !== 44 || element.charCodeAt(43) !== 61 || !LAST_CHARACTERS.includes(element[42])) return false;
  if (element.includes('-') || element.includes('_')) return false;
  return nodeInput.write(element, at, HASH_SIZE, 'base64') === HASH_SIZE;
}

const isOdd = (n: number): boolean => n % 2 === 1;
const half = (n: number): number => Math.floor(n / 2);
/** Levels a walk can climb: trees of up to 2^53 leaves. */
const LEVELS = 54;

/**
 * Checks many inclusion proofs against one tree, as RFC 9162 section 2.1.3.2 walks them, without hashing
 * again what an earlier proof established: once a walk reaches a subtree whose hash a verified proof
 * computed, the rest of its proof must be, element for element, what that proof had above it. A bundle's
 * events lie side by side in the tree, so most proofs then cost a leaf hash and one node hash. Every element
 * of every proof is still checked: hashed, or compared with one that was.
 *
 * Kept per level is the last verified walk's subtree (its index `fn` among the subtrees of 2^shift leaves) and
 * the proof element it was combined with: the walks of leaves in increasing order meet the last one's path or
 * pass to the right of it, never to its left. Leaves out of order are only checked in full, never wrongly.
 */
export class InclusionChecker {
  private readonly root: string;
  private readonly knownFn = new Array<number>(LEVELS).fill(-1);
  private readonly knownHash = new Array<string>(LEVELS).fill('');
  private readonly knownSibling = new Array<string>(LEVELS).fill('');
  // The walk in progress, kept to be remembered once verified: reused from proof to proof.
  private readonly walkFn: number[] = [];
  private readonly walkShift: number[] = [];
  private readonly walkHash: string[] = [];
  private readonly walkSibling: string[] = [];

  constructor(
    private readonly size: number,
    root: Hash,
  ) {
    this.root = root.toString('latin1');
  }

  /** The leaf's hash as a Buffer, or as its 32 bytes in latin1. */
  check(index: number, leaf: Hash | string, proof: readonly string[]): boolean {
    if (!Number.isSafeInteger(index) || index < 0 || index >= this.size || leaf.length !== HASH_SIZE) return false;
    let fn = index;
    let sn = this.size - 1;
    let shift = 0;
    let r = typeof leaf === 'string' ? leaf : leaf.toString('latin1');
    let steps = 0;
    for (let i = 0; i < proof.length; i += 1) {
      if (this.knownFn[shift] === fn) {
        if (this.knownHash[shift] !== r || !this.followsKnown(fn, sn, shift, proof, i)) return false;
        this.remember(steps);
        return true;
      }
      if (sn === 0) return false;
      this.walkFn[steps] = fn;
      this.walkShift[steps] = shift;
      this.walkHash[steps] = r;
      this.walkSibling[steps] = proof[i];
      steps += 1;
      if (isOdd(fn) || fn === sn) {
        if (!writeElement(proof[i], 1)) return false;
        nodeInput.write(r, 1 + HASH_SIZE, HASH_SIZE, 'latin1');
        while (!isOdd(fn) && fn !== 0) {
          fn = half(fn);
          sn = half(sn);
          shift += 1;
        }
      } else {
        if (!writeElement(proof[i], 1 + HASH_SIZE)) return false;
        nodeInput.write(r, 1, HASH_SIZE, 'latin1');
      }
      r = hash('sha256', nodeInput, 'binary');
      fn = half(fn);
      sn = half(sn);
      shift += 1;
    }
    if (sn !== 0 || r !== this.root) return false;
    this.remember(steps);
    return true;
  }

  /** Whether proof[from…] is exactly what the verified walk through this subtree had above it, to the root. */
  private followsKnown(fn: number, sn: number, shift: number, proof: readonly string[], from: number): boolean {
    for (let i = from; i < proof.length; i += 1) {
      if (sn === 0 || this.knownFn[shift] !== fn || this.knownSibling[shift] !== proof[i]) return false;
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

  private remember(steps: number): void {
    for (let i = 0; i < steps; i += 1) {
      const shift = this.walkShift[i];
      this.knownFn[shift] = this.walkFn[i];
      this.knownHash[shift] = this.walkHash[i];
      this.knownSibling[shift] = this.walkSibling[i];
    }
  }
}
