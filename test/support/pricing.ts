import { loadPricing, type Pricing } from '../../core/pricing/pricing.js';
import { TIERS } from '../../core/accounts/profile.js';

/**
 * The pricing file with every tier's rate limit lifted: a test walking an account through many requests
 * meets what it tests (fees, replays), not the free tier's 5 requests a second.
 */
export function pricingWithoutRateLimits(): Pricing {
  const pricing = loadPricing();
  for (const tier of TIERS) pricing.tiers[tier].rate_limit_per_s = 10_000;
  return pricing;
}
