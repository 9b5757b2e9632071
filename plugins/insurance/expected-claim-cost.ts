import { CLAIM_ASSUMPTIONS, type InsuranceProduct } from './products.js';

/**
 * A policy's expected claims cost for its year, in euro terms: the product's claim frequency times the expected
 * payment on one claim (settled, not rejected) — the heavy-tailed severity capped at the sum insured, less the
 * deductible — under the claims table's default assumptions. Closed form, so pricing a policy costs a few
 * exponentials: the limited expected value E[min(X, c)] of the spliced severity at the cap and at the deductible.
 */
export function expectedClaimCost(product: InsuranceProduct, sumInsured: number, deductible: number): number {
  const perClaim =
    product.severity === 'sum_insured'
      ? Math.max(0, sumInsured - deductible)
      : Math.max(0, limitedMean(product, sumInsured) - limitedMean(product, Math.min(deductible, sumInsured)));
  return product.claim_frequency * (1 - CLAIM_ASSUMPTIONS.rejection_rate) * perClaim;
}

/** E[min(X, cap)] for a product's severity X: the log-normal body below tail_from, the Pareto tail above it. */
function limitedMean(product: InsuranceProduct, cap: number): number {
  if (product.severity === 'sum_insured' || cap <= 0) return 0;
  const { mu, sigma, tail_from: tail } = product.severity;
  const { tail_share: share, tail_alpha: alpha } = CLAIM_ASSUMPTIONS;
  return (1 - share) * bodyLimitedMean(mu, sigma, tail, cap) + share * paretoLimitedMean(tail, alpha, cap);
}

/** E[min(X, cap)] for X log-normal(mu, sigma) conditioned below `tail` (the body is redrawn above it). */
function bodyLimitedMean(mu: number, sigma: number, tail: number, cap: number): number {
  const c = Math.min(cap, tail);
  const below = normalCdf((Math.log(tail) - mu) / sigma);
  const z = (Math.log(c) - mu) / sigma;
  return (Math.exp(mu + (sigma * sigma) / 2) * normalCdf(z - sigma) + c * (below - normalCdf(z))) / below;
}

/** E[min(X, cap)] for X Pareto with scale `tail` and shape `alpha`: the integral of its survival up to the cap. */
function paretoLimitedMean(tail: number, alpha: number, cap: number): number {
  if (cap <= tail) return cap;
  if (alpha === 1) return tail + tail * Math.log(cap / tail);
  return tail + (tail ** alpha * (cap ** (1 - alpha) - tail ** (1 - alpha))) / (1 - alpha);
}

/** The standard normal CDF, through the complementary error function (Numerical Recipes' erfc: error < 1.2e-7). */
function normalCdf(x: number): number {
  const z = Math.abs(x) / Math.SQRT2;
  const t = 1 / (1 + 0.5 * z);
  let polynomial = 0;
  for (let i = ERFC_COEFFICIENTS.length - 1; i >= 0; i--) polynomial = ERFC_COEFFICIENTS[i] + t * polynomial;
  const erfc = t * Math.exp(-z * z + polynomial);
  return x >= 0 ? 1 - erfc / 2 : erfc / 2;
}

/** The coefficients of the exponent's polynomial in t, lowest power first. */
const ERFC_COEFFICIENTS = [
  -1.26551223, 1.00002368, 0.37409196, 0.09678418, -0.18628806, 0.27886807, -1.13520398, 1.48851587, -0.82215223,
  0.17087277,
];
