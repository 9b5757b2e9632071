/**
 * Rows that reference other rows of their own parent set (an account's transfer to another account of the
 * dataset), for per-parent tables whose parents are generated apart: each parent must learn, from its index alone,
 * both what it sends and what it receives, so that the two legs of one event agree without either side seeing the
 * other's rows. A `PeerPermutation` pairs the parents on one slot and can be inverted; `peerCount` spreads a
 * table's rows over its parents so that any parent can tell any other's count (a `rows_per_parent` that keeps
 * the requested rows exact).
 */
import { mix, Rng } from '../generation/random/prng.js';

const PERMUTATION_STREAM = 0x9ee7_5001;
const COUNT_STREAM = 0x9ee7_5002;

/**
 * A permutation of the parents 0..size-1 for one slot: i -> (a·i + b) mod size, with `a` coprime to `size`, so
 * that on that slot every parent sends to exactly one parent (`to`) and receives from exactly one (`from`).
 * Parent i may be its own image; a pack skips that pair.
 */
export class PeerPermutation {
  private readonly a: number;
  private readonly b: number;
  private readonly inverse: number;

  constructor(
    readonly size: number,
    seed: number,
    slot: number,
  ) {
    if (!Number.isSafeInteger(size) || size < 1 || size >= 2 ** 31)
      throw new RangeError(`PeerPermutation: size ${size} is not an integer from 1 to 2^31 - 1`);
    const rng = new Rng(mix(seed, PERMUTATION_STREAM), slot);
    let a = 1;
    if (size > 2)
      do a = rng.int(1, size - 1);
      while (gcd(a, size) !== 1);
    this.a = a;
    this.b = rng.int(0, size - 1);
    this.inverse = inverseMod(a, size);
  }

  /** The parent that `parent` sends to on this slot. */
  to(parent: number): number {
    return (mulMod(this.a, parent, this.size) + this.b) % this.size;
  }

  /** The parent that sends to `parent` on this slot: to(from(p)) === p. */
  from(parent: number): number {
    return mulMod(this.inverse, (parent - this.b + this.size) % this.size, this.size);
  }
}

/**
 * A deterministic seed for what one sender does on one slot (the amount and time of a transfer), so that the
 * sender and the receiver each draw the same values: `new Rng(peerSeed(seed, slot, sender), 0)`.
 */
export function peerSeed(seed: number, slot: number, sender: number): number {
  return mix(mix(seed, PERMUTATION_STREAM + slot), sender);
}

const scratch = new Rng(0, 0);

/**
 * Parent `index`'s share of `total` rows spread over `parents` parents: the shares add up to `total` exactly, and
 * any parent's share is computed alone in O(log parents), by halving the parents again and again and splitting
 * each half's rows by a log-normal tilt (`spread`: the standard deviation of each halving's log-ratio), so some
 * parents are busy and some quiet. As a `rows_per_parent`, it keeps every parent's run complete at the requested
 * rows, which paired rows need (both legs of a transfer must be written).
 */
export function peerCount(total: number, parents: number, index: number, seed: number, spread = 0.3): number {
  if (!(index >= 0 && index < parents)) return 0;
  let lo = 0;
  let hi = parents;
  let rows = total;
  while (hi - lo > 1 && rows > 0) {
    const mid = lo + Math.floor((hi - lo) / 2);
    scratch.reseed(mix(mix(seed, COUNT_STREAM), lo), hi);
    // The halves' weights are their sizes tilted by e^(±spread·z) each: one normal draw for both.
    const left = (mid - lo) * Math.exp(spread * Math.SQRT2 * scratch.normal());
    const toLeft = Math.min(rows, Math.floor((rows * left) / (left + (hi - mid)) + scratch.next()));
    if (index < mid) {
      hi = mid;
      rows = toLeft;
    } else {
      lo = mid;
      rows -= toLeft;
    }
  }
  return rows;
}

function gcd(a: number, b: number): number {
  while (b !== 0) [a, b] = [b, a % b];
  return a;
}

/** a·b mod m without losing precision for m < 2^31 (the product is split so no term passes 2^53). */
function mulMod(a: number, b: number, m: number): number {
  const high = Math.floor(b / 65_536);
  const low = b % 65_536;
  return (((a * high) % m) * 65_536 + a * low) % m;
}

/** The inverse of `a` modulo `m` (a and m coprime), by the extended Euclidean algorithm. */
function inverseMod(a: number, m: number): number {
  if (m === 1) return 0;
  let [oldR, r] = [a, m];
  let [oldS, s] = [1, 0];
  while (r !== 0) {
    const q = Math.floor(oldR / r);
    [oldR, r] = [r, oldR - q * r];
    [oldS, s] = [s, oldS - q * s];
  }
  return ((oldS % m) + m) % m;
}
