import type { Rng } from './prng.js';

/**
 * Numeric distributions a column may follow. Heavy tails (log-normal, Pareto) are what real amounts
 * look like: many small payments, a few very large ones.
 */
export type Distribution =
  | { distribution: 'uniform'; min: number; max: number }
  | { distribution: 'normal'; mean: number; sd: number }
  | { distribution: 'lognormal'; mu: number; sigma: number }
  | { distribution: 'pareto'; xm: number; alpha: number };

/** The JSON Schema of a distribution, shared by the data types' parameters and the config overrides. */
export const distributionSchema = {
  oneOf: [
    {
      type: 'object',
      required: ['distribution', 'min', 'max'],
      properties: { distribution: { const: 'uniform' }, min: { type: 'number' }, max: { type: 'number' } },
    },
    {
      type: 'object',
      required: ['distribution', 'mean', 'sd'],
      properties: { distribution: { const: 'normal' }, mean: { type: 'number' }, sd: { type: 'number', minimum: 0 } },
    },
    {
      type: 'object',
      required: ['distribution', 'mu', 'sigma'],
      properties: {
        distribution: { const: 'lognormal' },
        mu: { type: 'number' },
        sigma: { type: 'number', minimum: 0 },
      },
    },
    {
      type: 'object',
      required: ['distribution', 'xm', 'alpha'],
      properties: {
        distribution: { const: 'pareto' },
        xm: { type: 'number', exclusiveMinimum: 0 },
        alpha: { type: 'number', exclusiveMinimum: 0 },
      },
    },
  ],
} as const;

export type Sample = (rng: Rng) => number;

export function sampler(spec: Distribution): Sample {
  switch (spec.distribution) {
    case 'uniform': {
      const { min, max } = spec;
      return (rng) => min + rng.next() * (max - min);
    }
    case 'normal': {
      const { mean, sd } = spec;
      return (rng) => rng.normal(mean, sd);
    }
    case 'lognormal': {
      const { mu, sigma } = spec;
      return (rng) => Math.exp(rng.normal(mu, sigma));
    }
    case 'pareto': {
      const { xm, alpha } = spec;
      return (rng) => xm / Math.pow(1 - rng.next(), 1 / alpha);
    }
  }
}

/**
 * Draws an index by weight in O(log n) over a cumulative table built once. Weights need not sum to one.
 */
export function weightedIndex(weights: readonly number[]): (rng: Rng) => number {
  const cumulative = new Float64Array(weights.length);
  let total = 0;
  weights.forEach((weight, i) => (cumulative[i] = total += weight));
  return (rng) => {
    const target = rng.next() * total;
    let low = 0;
    let high = cumulative.length - 1;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (cumulative[middle] > target) high = middle;
      else low = middle + 1;
    }
    return low;
  };
}

export function weightedPick<T>(items: readonly T[], weights: readonly number[]): (rng: Rng) => T {
  const index = weightedIndex(weights);
  return (rng) => items[index(rng)];
}
