/**
 * HyperLogLog distinct counting (Flajolet et al. 2007) with 2^12 registers, estimated by Otmar Ertl's improved raw
 * estimator (Ertl 2017, "New cardinality estimation algorithms for HyperLogLog sketches", arXiv:1702.01284). It reads
 * the histogram of register values, in which the σ series stands in for the registers still at 0 and the τ series for
 * those saturated at q + 1, so it is unbiased from the empty sketch up to about 2^32 values, with no switch to linear
 * counting and no empirical bias tables. Its relative standard error is 1.04 / sqrt(4096) ≈ 1.6 %, less for small
 * cardinalities. Registers merge by maximum, so the sketches of a table's chunks merge into the sketch of the table.
 */
export const HLL_PRECISION = 12;
const REGISTERS = 1 << HLL_PRECISION;
/** Ertl's q: the hash bits left for the rank, so registers hold 0 (never hit) to q + 1 (all q bits zero). */
const RANK_BITS = 32 - HLL_PRECISION;
/** The sketch's relative standard error, stated in the report: Ertl's estimator keeps the raw one's 1.04 / sqrt(m). */
export const HLL_STANDARD_ERROR = 1.04 / Math.sqrt(REGISTERS);

const float = new Float64Array(1);
const words = new Uint32Array(float.buffer);

/** MurmurHash3's finaliser: spreads every input bit over the 32 bits the registers are cut from. */
function fmix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A 32-bit hash of a cell: strings by FNV-1a, numbers by their IEEE bits, each finalised. */
export function hashCell(value: unknown): number {
  if (typeof value === 'number') {
    float[0] = value;
    return fmix(words[0] ^ Math.imul(words[1], 0x9e3779b1));
  }
  const text = typeof value === 'string' ? value : String(value);
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return fmix(h);
}

export class HyperLogLog {
  constructor(readonly registers = new Uint8Array(REGISTERS)) {}

  add(value: unknown): void {
    this.addHash(hashCell(value));
  }

  addNumber(value: number): void {
    float[0] = value;
    this.addHash(fmix(words[0] ^ Math.imul(words[1], 0x9e3779b1)));
  }

  /**
   * The first `count` numbers of `values`, each hashed as addNumber hashes it, read as words of the array's own
   * buffer rather than copied one by one through a scratch array.
   */
  addNumbers(values: Float64Array, count: number): void {
    const bits = new Uint32Array(values.buffer, values.byteOffset, count * 2);
    for (let i = 0; i < count * 2; i += 2) this.addHash(fmix(bits[i] ^ Math.imul(bits[i + 1], 0x9e3779b1)));
  }

  private addHash(hash: number): void {
    const index = hash >>> (32 - HLL_PRECISION);
    // The rank of the first set bit of the remaining 20 bits (21 when none is set).
    const rest = (hash << HLL_PRECISION) | (1 << (HLL_PRECISION - 1));
    const rank = Math.clz32(rest) + 1;
    if (rank > this.registers[index]) this.registers[index] = rank;
  }

  merge(other: Uint8Array): void {
    for (let i = 0; i < REGISTERS; i++) if (other[i] > this.registers[i]) this.registers[i] = other[i];
  }

  /**
   * Ertl's improved raw estimator, from the counts C_k of registers holding k:
   * α∞ m² / (m σ(C₀/m) + Σ_{k=1..q} C_k 2^-k + m τ(1 − C_{q+1}/m) 2^-q), with α∞ = 1 / (2 ln 2).
   */
  estimate(): number {
    const histogram = new Float64Array(RANK_BITS + 2);
    // Registers handed in from elsewhere could hold more than q + 1; addHash never does, so read them as saturated.
    for (let i = 0; i < REGISTERS; i++) histogram[Math.min(this.registers[i], RANK_BITS + 1)]++;
    let z = REGISTERS * tau(1 - histogram[RANK_BITS + 1] / REGISTERS);
    // Horner's scheme for Σ C_k 2^-k, which also scales the τ term by 2^-q.
    for (let k = RANK_BITS; k >= 1; k--) z = 0.5 * (z + histogram[k]);
    z += REGISTERS * sigma(histogram[0] / REGISTERS);
    // Only a sketch with every register saturated (some 4 × 10^10 values) leaves z = 0: past counting, yet an integer.
    if (z === 0) return Number.MAX_SAFE_INTEGER;
    // An empty sketch has σ(1) = ∞, so it estimates 0.
    return Math.round((REGISTERS * REGISTERS) / (2 * Math.LN2 * z));
  }
}

/** σ(x) = x + Σ_{k≥1} x^(2^k) 2^(k−1), summed until adding a term no longer changes the sum; σ(1) = ∞. */
function sigma(x: number): number {
  if (x === 1) return Infinity;
  let power = x;
  let weight = 1;
  let sum = x;
  let previous: number;
  do {
    power *= power;
    previous = sum;
    sum += power * weight;
    weight *= 2;
  } while (sum !== previous);
  return sum;
}

/** τ(x) = (1 − x − Σ_{k≥1} (1 − x^(2^−k))² 2^−k) / 3, summed until a term no longer changes it; τ(0) = τ(1) = 0. */
function tau(x: number): number {
  if (x === 0 || x === 1) return 0;
  let root = x;
  let weight = 1;
  let sum = 1 - x;
  let previous: number;
  do {
    root = Math.sqrt(root);
    previous = sum;
    weight /= 2;
    sum -= (1 - root) ** 2 * weight;
  } while (sum !== previous);
  return sum / 3;
}
