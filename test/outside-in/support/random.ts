/**
 * A small seeded generator (mulberry32): the suites draw every choice from it, so that a run is
 * repeated exactly from its printed seed.
 */
export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** In [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** A whole number in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** A whole number in [min, max], small ones as likely as large ones by order of magnitude. */
  logInt(min: number, max: number): number {
    return Math.min(max, Math.floor(Math.exp(Math.log(min) + this.next() * (Math.log(max + 1) - Math.log(min)))));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** A random subset, in the list's order, possibly empty. */
  subset<T>(items: readonly T[], probability = 0.5): T[] {
    return items.filter(() => this.chance(probability));
  }

  /** A seed for a generation: any safe integer, the edges included now and then. */
  seed(): number {
    if (this.chance(0.05)) return this.pick([0, Number.MAX_SAFE_INTEGER]);
    return Math.floor(this.next() * 2 ** 32) * 2 ** 20 + this.int(0, 2 ** 20 - 1);
  }
}

/** The seed of a run: the variable's value when set (to repeat a run), a fresh one otherwise. */
export function runSeed(variable: string): number {
  const given = process.env[variable];
  if (given === undefined || given === '') return Math.floor(Math.random() * 2 ** 31);
  const seed = Number(given);
  if (!Number.isSafeInteger(seed)) throw new Error(`${variable} must be a whole number, not "${given}"`);
  return seed;
}
