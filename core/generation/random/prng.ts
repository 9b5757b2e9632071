/**
 * The engine's randomness: a small, fast, seedable generator (sfc32, 128-bit state, 32-bit ops only,
 * passes PractRand to 2^40 bytes) and the hashing that derives independent streams from names and indices.
 *
 * Every row (or every parent of a per-parent table) gets its own stream seeded from
 * (seed, table, index), so a row's values do not depend on which chunk or worker produced it. That is
 * what makes "the same plan gives the same bytes whatever the number of workers" hold by construction.
 */

/** 32-bit string hash (FNV-1a, then a murmur3 finaliser for avalanche). */
export function hashString(text: string, seed = 0x811c9dc5): number {
  let h = seed >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return fmix32(h);
}

/** murmur3's finaliser: every input bit affects every output bit. */
export function fmix32(value: number): number {
  let h = value >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Combines two 32-bit values into one well-mixed 32-bit value (order matters). */
export function mix(a: number, b: number): number {
  return fmix32((Math.imul(a ^ 0x9e3779b9, 0x85ebca6b) + b) ^ (b >>> 15));
}

/** The seed of one table's streams: every table of a plan draws from its own space. */
export function tableSeed(seed: number, table: string): number {
  return mix(seed >>> 0, hashString(table));
}

const TWO_POW_32 = 4294967296;
const charCodes: number[] = [];

/**
 * Short strings over a small alphabet are joined from a table of every pair of its characters: half as
 * many pieces, and V8 copies strings shorter than 13 characters into one flat string as it concatenates
 * them, which measured cheaper than String.fromCharCode.apply over an array of codes (see
 * docs/performance.md). Alphabets are a pack's constants; the tables kept are bounded all the same.
 */
interface AlphabetPairs {
  size: number;
  singles: string[];
  pairs: string[];
}
const FLAT_STRING_MAX = 12;
const PAIRED_ALPHABET_MAX = 64;
const MAX_PAIRED_ALPHABETS = 64;
const alphabetPairs = new Map<string, AlphabetPairs>();
let lastAlphabet = '';
let lastPairs: AlphabetPairs | undefined;

function pairsOf(alphabet: string): AlphabetPairs | undefined {
  let table = alphabetPairs.get(alphabet);
  if (!table) {
    if (alphabetPairs.size >= MAX_PAIRED_ALPHABETS) return undefined;
    const singles = Array.from({ length: alphabet.length }, (_, i) => alphabet[i]);
    table = {
      size: alphabet.length,
      singles,
      pairs: singles.flatMap((first) => singles.map((second) => first + second)),
    };
    alphabetPairs.set(alphabet, table);
  }
  lastAlphabet = alphabet;
  lastPairs = table;
  return table;
}

export class Rng {
  private a = 0;
  private b = 0;
  private c = 0;
  private d = 0;

  constructor(seed = 0, index = 0) {
    this.reseed(seed, index);
  }

  /** Positions the generator on the stream of (seed, index); splitmix-style seeding needs no warm-up loop. */
  reseed(seed: number, index: number): this {
    const base = mix(seed, index);
    this.a = fmix32(base + 0x9e3779b9);
    this.b = fmix32(base + 0x3c6ef372);
    this.c = fmix32(base + 0xdaa66d2b);
    this.d = 1;
    return this;
  }

  /** Uniform 32-bit unsigned integer. */
  u32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.u32() / TWO_POW_32;
  }

  /** Uniform integer in [min, max], both inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** Uniform float in [min, max). */
  float(min: number, max: number): number {
    return min + this.next() * (max - min);
  }

  /** True with probability `rate`. */
  chance(rate: number): boolean {
    return this.next() < rate;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }

  /** A string of `length` characters drawn from `alphabet`, one draw per character. */
  chars(alphabet: string, length: number): string {
    if (
      length >= 0 &&
      length <= FLAT_STRING_MAX &&
      Number.isInteger(length) &&
      alphabet.length > 0 &&
      alphabet.length <= PAIRED_ALPHABET_MAX
    ) {
      const pairs = alphabet === lastAlphabet ? lastPairs : pairsOf(alphabet);
      if (pairs) return this.charsInPairs(pairs, length);
    }
    // Built as one string: concatenating many characters would make a rope.
    const codes = charCodes;
    codes.length = length;
    for (let i = 0; i < length; i++) codes[i] = alphabet.charCodeAt(Math.floor(this.next() * alphabet.length));
    return String.fromCharCode.apply(null, codes);
  }

  private charsInPairs({ size, singles, pairs }: AlphabetPairs, length: number): string {
    let text = '';
    let i = 0;
    for (; i + 2 <= length; i += 2) {
      const first = Math.floor(this.next() * size);
      text += pairs[first * size + Math.floor(this.next() * size)];
    }
    return i < length ? text + singles[Math.floor(this.next() * size)] : text;
  }

  /** `length` decimal digits (leading zeros kept). */
  digits(length: number): string {
    return this.chars('0123456789', length);
  }

  /** Standard normal draw (Box-Muller; one of the pair is discarded to keep each draw stateless). */
  normal(mean = 0, sd = 1): number {
    const u = 1 - this.next();
    const v = this.next();
    return mean + sd * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }

  /** Exponential draw with the given rate (mean 1/rate). */
  exponential(rate: number): number {
    return -Math.log(1 - this.next()) / rate;
  }
}
