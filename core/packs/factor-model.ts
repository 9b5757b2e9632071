import { hashString, mix, Rng } from '../generation/random/prng.js';
import { Garch, type GarchParameters } from './garch.js';

/**
 * A linear factor model of returns, r_i = sum_k loading_ik f_k + e_i: entities that load on common factors (a
 * market, a sector) move together, as listed shares do. The factors' paths are shared by every entity of a dataset,
 * so each is drawn from a stream of (seed, factor name, block) alone: any worker, generating any entity in any
 * order, recomputes the same path, and the bytes do not depend on how the work is split.
 */

export interface Exposure {
  /** The entity's loading on the factor (a beta), before any scaling down. */
  loading: number;
  /** The factor's standard deviation per step. */
  sd: number;
}

export interface Loadings {
  /** The loadings, scaled down together when the factors alone would explain more than `maxShare` of the variance. */
  loadings: number[];
  /** Standard deviation per step of the idiosyncratic part, so that the total variance is the entity's. */
  residualSd: number;
  /** Share of the entity's variance its factors explain. */
  factorShare: number;
}

/**
 * Splits an entity's variance per step (its `totalSd` squared) between its factors and an idiosyncratic residual,
 * for independent factors: a loading that would explain more than `maxShare` of the variance (a low-volatility
 * share with a high beta) is scaled down, keeping the total at the entity's volatility.
 */
export function factorLoadings(totalSd: number, exposures: readonly Exposure[], maxShare = 0.9): Loadings {
  const total = totalSd * totalSd;
  let explained = 0;
  for (const { loading, sd } of exposures) explained += loading * loading * sd * sd;
  const scale = explained > maxShare * total ? Math.sqrt((maxShare * total) / explained) : 1;
  const factorVariance = explained * scale * scale;
  return {
    loadings: exposures.map(({ loading }) => loading * scale),
    residualSd: Math.sqrt(Math.max(0, total - factorVariance)),
    factorShare: total > 0 ? factorVariance / total : 0,
  };
}

export interface FactorPathOptions extends GarchParameters {
  /** Steps per block: each block is drawn on its own, so a path is reached without drawing what comes before. */
  block_length: number;
  /** Unseen steps before each block, so that its first conditional variance is near the stationary one. */
  burn_in: number;
}

export interface FactorBlock {
  /** The factor's return at each step of the block. */
  returns: Float64Array;
  /** Its conditional standard deviation at each step. */
  sds: Float64Array;
  /** The block's total return (the sum of `returns`). */
  total: number;
}

/**
 * Factor paths by blocks: block b of factor `name` in a dataset is a GARCH(1,1) path drawn from
 * `new Rng(mix(hash(scope), hash(name)), b)`, started afresh after a burn-in, where `scope` is any text the whole
 * dataset shares and another seed changes (a key of the plan, `ctx.key(table, 0)`). Blocks are kept once drawn
 * (up to `limit`, then all are dropped): every entity a worker generates asks for the same few.
 */
export class FactorPaths {
  private readonly blocks = new Map<string, FactorBlock>();
  private readonly garch: Garch;
  private readonly rng = new Rng(0, 0);

  constructor(
    readonly options: FactorPathOptions,
    private readonly limit = 1024,
  ) {
    this.garch = new Garch(options);
  }

  block(scope: string, name: string, block: number): FactorBlock {
    const key = `${scope} ${name} ${block}`;
    let path = this.blocks.get(key);
    if (!path) {
      if (this.blocks.size >= this.limit) this.blocks.clear();
      path = this.draw(mix(hashString(scope), hashString(name)), block);
      this.blocks.set(key, path);
    }
    return path;
  }

  private draw(seed: number, block: number): FactorBlock {
    const { block_length, burn_in } = this.options;
    const rng = this.rng.reseed(seed, block | 0);
    const returns = new Float64Array(block_length);
    const sds = new Float64Array(block_length);
    this.garch.reset();
    this.garch.burnIn(rng, burn_in);
    let total = 0;
    for (let i = 0; i < block_length; i++) {
      sds[i] = Math.sqrt(this.garch.variance);
      total += returns[i] = this.garch.step(rng);
    }
    return { returns, sds, total };
  }
}
