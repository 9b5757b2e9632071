import { performance } from 'node:perf_hooks';
import type { Redis } from 'ioredis';
import type { Pricing } from '../pricing/pricing.js';
import { TIERS, type Tier } from '../pricing/tiers.js';
import { MemoryGcra, gcraPolicy, remainingOf, retryAfterUsOf } from './gcra.js';
import type { GcraPolicy, GcraResult } from './gcra.js';
import { RedisGcra } from './redis-gcra.js';

export interface RateDecision {
  allowed: boolean;
  /** Requests per second of the tier. */
  limit: number;
  remaining: number;
  /** Whole seconds until the bucket is full again (at least 1). */
  resetSeconds: number;
  /** Whole seconds until one more request is admitted (at least 1; for a refused request). */
  retryAfterSeconds: number;
  tier: Tier;
}

export interface RateLimitsOptions {
  /**
   * Now, in microseconds, for the buckets (tests drive it). By default a monotonic clock for the
   * memory buckets and the Redis server's own clock for the shared ones, which every instance reads.
   */
  clock?: () => number;
  /** How long a Redis call may take before this request falls back to the memory bucket. */
  redisTimeoutMs?: number;
  /** Told once each time Redis stops answering (and again only after it has answered since). */
  onRedisFailure?: (error: unknown) => void;
}

/** After a failed Redis call, requests go to memory this long before Redis is tried again. */
const REDIS_RETRY_US = 1_000_000;
const monotonicMicroseconds = (): number => Math.floor(performance.now() * 1000);

/**
 * Requests per second per account, at its tier's rate from the pricing file, by GCRA (a token bucket of
 * `rate_limit_per_s` requests, refilled continuously: gcra.ts). With Redis every instance of
 * a fleet draws from one bucket per account. While Redis cannot answer (down, or slower than
 * `redisTimeoutMs`), each instance limits with its own memory buckets: it fails open to a per-instance
 * limit, rather than refuse every request or admit everything. The limit protects capacity, not money
 * (credits are held on the account stream), so a Redis outage should not become an outage of the API;
 * a fleet of n instances admits at most n times the rate meanwhile.
 */
export class RateLimits {
  private readonly policies: Record<Tier, GcraPolicy>;
  private readonly memory = new MemoryGcra();
  private readonly shared: RedisGcra | undefined;
  private readonly now: () => number;
  private readonly redisTimeoutMs: number;
  /** Set while Redis is failing: when to try it again. */
  private redisRetryAt: number | null = null;

  constructor(
    pricing: Pricing,
    redis?: Redis,
    private readonly options: RateLimitsOptions = {},
  ) {
    const policies = TIERS.map((tier) => [tier, gcraPolicy(pricing.tiers[tier].rate_limit_per_s)] as const);
    this.policies = Object.fromEntries(policies) as Record<Tier, GcraPolicy>;
    this.shared = redis && new RedisGcra(redis, 'finsynth-rate:');
    this.now = options.clock ?? monotonicMicroseconds;
    this.redisTimeoutMs = options.redisTimeoutMs ?? 250;
  }

  async consume(accountId: string, tier: Tier): Promise<RateDecision> {
    const policy = this.policies[tier];
    const result = (await this.takeShared(accountId, policy)) ?? this.memory.take(accountId, this.now(), policy);
    return decisionOf(result, policy, tier);
  }

  /** The shared bucket's answer; undefined when Redis cannot give one now (the memory bucket answers). */
  private async takeShared(accountId: string, policy: GcraPolicy): Promise<GcraResult | undefined> {
    if (!this.shared?.connected) return undefined;
    if (this.redisRetryAt !== null && this.now() < this.redisRetryAt) return undefined;
    try {
      const take = this.shared.take(accountId, policy, this.options.clock?.());
      const result = await withTimeout(take, this.redisTimeoutMs);
      this.redisRetryAt = null;
      return result;
    } catch (error) {
      if (this.redisRetryAt === null) this.options.onRedisFailure?.(error);
      this.redisRetryAt = this.now() + REDIS_RETRY_US;
      return undefined;
    }
  }
}

function decisionOf(result: GcraResult, policy: GcraPolicy, tier: Tier): RateDecision {
  const seconds = (us: number) => Math.max(1, Math.ceil(us / 1_000_000));
  return {
    allowed: result.allowed,
    limit: policy.limit,
    remaining: remainingOf(result, policy),
    resetSeconds: seconds(result.debtUs),
    retryAfterSeconds: seconds(retryAfterUsOf(result, policy)),
    tier,
  };
}

/** The call's answer, or a rejection once `ms` have passed (the call's own late answer is then dropped). */
function withTimeout<T>(call: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Redis did not answer within ${ms} ms`)), ms);
  });
  call.catch(() => {});
  return Promise.race([call, timeout]).finally(() => clearTimeout(timer));
}
