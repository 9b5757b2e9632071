import type { Rng } from '../generation/random/prng.js';

/**
 * GARCH(1,1) returns with Student-t shocks: the model of daily returns whose large moves come in clusters
 * (volatility clustering) and whose tails are fatter than the normal's (excess kurtosis), as markets' are.
 * Pure arithmetic on a caller's Rng, so a path is as deterministic as the stream it draws from.
 */

/** A Gamma(shape, 1) draw, shape ≥ 1 (Marsaglia and Tsang's squeeze: about one normal and one uniform a draw). */
export function gamma(rng: Rng, shape: number): number {
  const d = shape - 1 / 3;
  const c = 1 / Math.sqrt(9 * d);
  for (;;) {
    const x = rng.normal();
    const root = 1 + c * x;
    if (root <= 0) continue;
    const v = root * root * root;
    const u = 1 - rng.next();
    if (u < 1 - 0.0331 * x * x * x * x || Math.log(u) < 0.5 * x * x + d * (1 - v + Math.log(v))) return d * v;
  }
}

/**
 * A Student-t draw with `nu` > 2 degrees of freedom, scaled to unit variance: a shock with the variance of a
 * standard normal and fatter tails (excess kurtosis 6 / (nu − 4) for nu > 4).
 */
export function studentT(rng: Rng, nu: number): number {
  const chiSquare = 2 * gamma(rng, nu / 2);
  return rng.normal() * Math.sqrt((nu - 2) / chiSquare);
}

export interface GarchParameters {
  /** Unconditional variance of a step's return (the long-run level the conditional variance reverts to). */
  variance: number;
  /** Weight of the last squared return (the reaction to news), ≥ 0. */
  alpha: number;
  /** Weight of the last conditional variance (the persistence), ≥ 0, with alpha + beta < 1. */
  beta: number;
  /** Degrees of freedom of the Student-t shocks (> 2; Infinity for normal shocks). */
  nu: number;
}

/**
 * A GARCH(1,1) process: r_t = sqrt(h_t) z_t with z_t unit-variance Student-t, and
 * h_{t+1} = omega + alpha r_t^2 + beta h_t, where omega = variance (1 − alpha − beta) holds the long-run variance.
 */
export class Garch {
  /** Conditional variance of the next step's return. */
  variance: number;
  private readonly omega: number;

  constructor(readonly params: GarchParameters) {
    if (!(params.alpha >= 0 && params.beta >= 0 && params.alpha + params.beta < 1))
      throw new RangeError('GARCH(1,1) needs alpha, beta ≥ 0 with alpha + beta < 1');
    if (!(params.nu > 2)) throw new RangeError('Student-t shocks need nu > 2 for a variance');
    this.omega = params.variance * (1 - params.alpha - params.beta);
    this.variance = params.variance;
  }

  /** Restarts at a conditional variance (the long-run one by default). */
  reset(variance = this.params.variance): void {
    this.variance = variance;
  }

  /** The next return: a shock scaled by the conditional volatility, which then reacts to it. */
  step(rng: Rng): number {
    const { nu, alpha, beta } = this.params;
    const shock = nu === Infinity ? rng.normal() : studentT(rng, nu);
    const value = Math.sqrt(this.variance) * shock;
    this.variance = this.omega + alpha * value * value + beta * this.variance;
    return value;
  }

  /** Runs `steps` steps unseen, so that the conditional variance is a draw from near its stationary distribution. */
  burnIn(rng: Rng, steps: number): void {
    for (let i = 0; i < steps; i++) this.step(rng);
  }
}

/**
 * The kurtosis E[r^4] / E[r^2]^2 of a stationary GARCH(1,1) with shocks of kurtosis 3 (nu − 2) / (nu − 4):
 * finite only when beta^2 + 2 alpha beta + kappa alpha^2 < 1 (Infinity otherwise). Excess kurtosis is this less 3.
 */
export function garchKurtosis(alpha: number, beta: number, nu: number): number {
  const kappa = nu === Infinity ? 3 : nu > 4 ? (3 * (nu - 2)) / (nu - 4) : Infinity;
  const persistence = (alpha + beta) ** 2;
  const denominator = 1 - persistence - (kappa - 1) * alpha * alpha;
  return denominator > 0 ? (kappa * (1 - persistence)) / denominator : Infinity;
}
