import { CLAIM_ASSUMPTIONS, INSURANCE_PRODUCTS, type InsuranceProduct } from './products.js';

/** The coefficients of the exponent's polynomial in t of the normal CDF below, lowest power first. */
const ERFC_COEFFICIENTS = [
  -1.26551223, 1.00002368, 0.37409196, 0.09678418, -0.18628806, 0.27886807, -1.13520398, 1.48851587, -0.82215223,
  0.17087277,
];

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
  const severity = SEVERITIES.get(product);
  if (!severity || cap <= 0) return 0;
  const share = CLAIM_ASSUMPTIONS.tail_share;
  return (1 - share) * bodyLimitedMean(severity, cap) + share * paretoLimitedMean(severity, cap);
}

/** What pricing needs of a product's severity, computed once: most policies' caps need no more than this. */
interface Severity {
  mu: number;
  sigma: number;
  tail: number;
  /** E[e^N(mu, sigma²)]: the untruncated body's mean. */
  mean: number;
  /** P(body draw < tail), and the body's mean below the tail. */
  below: number;
  truncatedMean: number;
  /** tail^alpha and tail^(1 - alpha), for the Pareto's limited mean. */
  tailToAlpha: number;
  tailToOneLessAlpha: number;
}

const SEVERITIES = new Map<InsuranceProduct, Severity>();
for (const product of INSURANCE_PRODUCTS) {
  if (product.severity === 'sum_insured') continue;
  const { mu, sigma, tail_from: tail } = product.severity;
  const mean = Math.exp(mu + (sigma * sigma) / 2);
  const z = (Math.log(tail) - mu) / sigma;
  const below = normalCdf(z);
  const alpha = CLAIM_ASSUMPTIONS.tail_alpha;
  SEVERITIES.set(product, {
    mu,
    sigma,
    tail,
    mean,
    below,
    truncatedMean: (mean * normalCdf(z - sigma)) / below,
    tailToAlpha: tail ** alpha,
    tailToOneLessAlpha: tail ** (1 - alpha),
  });
}

/** E[min(X, cap)] for X log-normal(mu, sigma) conditioned below the tail (the body is redrawn above it). */
function bodyLimitedMean(severity: Severity, cap: number): number {
  if (cap >= severity.tail) return severity.truncatedMean;
  const z = (Math.log(cap) - severity.mu) / severity.sigma;
  return (severity.mean * normalCdf(z - severity.sigma) + cap * (severity.below - normalCdf(z))) / severity.below;
}

/** E[min(X, cap)] for X Pareto with scale tail_from and shape tail_alpha: the integral of its survival to the cap. */
function paretoLimitedMean(severity: Severity, cap: number): number {
  const { tail } = severity;
  const alpha = CLAIM_ASSUMPTIONS.tail_alpha;
  if (cap <= tail) return cap;
  return tail + (severity.tailToAlpha * (cap ** (1 - alpha) - severity.tailToOneLessAlpha)) / (1 - alpha);
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
