import type { Rng } from '../../core/packs/sdk.js';

/**
 * A policy's number of claims in its year: Poisson with a rate that varies between policyholders by a
 * gamma law of mean `mean` and shape `shape` — the negative binomial that actuaries fit to claim counts
 * (over-dispersed: more policies with none and with several than a Poisson count gives).
 */
export function claimCount(rng: Rng, mean: number, shape: number): number {
  const rate = (mean * gamma(rng, shape)) / shape;
  // Poisson by inversion: the rates of a policy-year are small, so this takes a step or two.
  const u = rng.next();
  let count = 0;
  let term = Math.exp(-rate);
  let cumulative = term;
  while (u > cumulative && term > 0) {
    count++;
    term *= rate / count;
    cumulative += term;
  }
  return count;
}

/** Gamma(shape, 1) by Marsaglia and Tsang's method; shapes below 1 through Gamma(shape + 1) · U^(1/shape). */
function gamma(rng: Rng, shape: number): number {
  if (shape < 1) return gamma(rng, shape + 1) * (1 - rng.next()) ** (1 / shape);
  const d = shape - 1 / 3;
  const c = 1 / Math.sqrt(9 * d);
  for (;;) {
    const x = rng.normal();
    const v = (1 + c * x) ** 3;
    if (v <= 0) continue;
    const u = 1 - rng.next();
    if (Math.log(u) < 0.5 * x * x + d - d * v + d * Math.log(v)) return d * v;
  }
}
