import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { Redis } from 'ioredis';
import type { Pricing } from './billing/pricing.js';
import { TIERS, type Tier } from './domain/account/profile.js';

export interface RateDecision {
  allowed: boolean;
  /** Requests per second of the tier. */
  limit: number;
  remaining: number;
  /** Whole seconds until the window resets (at least 1 when refused). */
  resetSeconds: number;
  tier: Tier;
}

/**
 * Requests per second per account, at its tier's rate from the pricing file. Each account has a
 * one-second window of `rate_limit_per_s` requests (rate-limiter-flexible's fixed window: a bucket of
 * that many tokens, refilled each second). With Redis every instance of a fleet draws from the same
 * window; if Redis is unreachable each instance falls back to its own memory window rather than refuse
 * or admit everything.
 */
export class RateLimits {
  private readonly limiters: Record<Tier, RateLimiterMemory | RateLimiterRedis>;

  constructor(pricing: Pricing, redis?: Redis) {
    this.limiters = Object.fromEntries(
      TIERS.map((tier) => {
        const options = { points: pricing.tiers[tier].rate_limit_per_s, duration: 1, keyPrefix: `finsynth-rate-${tier}` };
        const memory = new RateLimiterMemory(options);
        const limiter = redis ? new RateLimiterRedis({ ...options, storeClient: redis, insuranceLimiter: memory }) : memory;
        return [tier, limiter];
      }),
    ) as Record<Tier, RateLimiterMemory | RateLimiterRedis>;
  }

  async consume(accountId: string, tier: Tier): Promise<RateDecision> {
    const limiter = this.limiters[tier];
    try {
      const result = await limiter.consume(accountId);
      return decision(true, limiter.points, result, tier);
    } catch (refused) {
      if (!(refused instanceof RateLimiterRes)) throw refused;
      return decision(false, limiter.points, refused, tier);
    }
  }
}

function decision(allowed: boolean, limit: number, result: RateLimiterRes, tier: Tier): RateDecision {
  const resetSeconds = Math.max(1, Math.ceil(result.msBeforeNext / 1000));
  return { allowed, limit, remaining: Math.max(0, result.remainingPoints), resetSeconds, tier };
}
