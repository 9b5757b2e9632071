/**
 * The generic cell rate algorithm (GCRA), the token bucket written as one number per key: the
 * theoretical arrival time (TAT) at which the bucket would be full again. A request is admitted when,
 * after adding one emission interval to the TAT, the bucket's debt (TAT − now) is at most its window.
 * A burst of `limit` requests passes at once, then one per interval: in any span of D seconds at most
 * limit + ⌊D × limit⌋ requests are admitted, wherever the span falls. A fixed window admits twice its
 * limit in an instant across its edge. Times are whole microseconds, so that the Redis script (Lua
 * numbers are doubles) computes exactly what this module computes.
 */

export interface GcraPolicy {
  /** Requests per second, and the burst a full bucket admits at once. */
  limit: number;
  /** Microseconds per request, rounded up so that the sustained rate never exceeds the limit. */
  intervalUs: number;
  /** limit × interval: the most debt the bucket admits. */
  windowUs: number;
}

export interface GcraResult {
  allowed: boolean;
  /** The TAT to store (unchanged when refused). */
  tat: number;
  /** TAT − now after the decision: how long until the bucket is full again. */
  debtUs: number;
}

export function gcraPolicy(limit: number): GcraPolicy {
  const intervalUs = Math.ceil(1_000_000 / limit);
  return { limit, intervalUs, windowUs: intervalUs * limit };
}

/** One request at `now` against the stored TAT (0 or less: a full bucket). */
export function gcra(storedTat: number, now: number, policy: GcraPolicy): GcraResult {
  const base = Math.max(storedTat, now);
  const next = base + policy.intervalUs;
  if (next - now > policy.windowUs) return { allowed: false, tat: storedTat, debtUs: base - now };
  return { allowed: true, tat: next, debtUs: next - now };
}

/** Requests the bucket still admits at once after this decision. */
export const remainingOf = (result: GcraResult, policy: GcraPolicy): number =>
  result.allowed ? Math.floor((policy.windowUs - result.debtUs) / policy.intervalUs) : 0;

/** How long a refused request must wait until one more is admitted. */
export const retryAfterUsOf = (result: GcraResult, policy: GcraPolicy): number =>
  Math.max(0, result.debtUs + policy.intervalUs - policy.windowUs);

/** How often the memory store forgets keys whose bucket has refilled (a forgotten key is a full bucket). */
const SWEEP_EVERY_US = 60_000_000;

/** The TATs of one process: the limiter without Redis, and the fallback while Redis cannot answer. */
export class MemoryGcra {
  private readonly tats = new Map<string, number>();
  private sweptAt = -Infinity;

  take(key: string, now: number, policy: GcraPolicy): GcraResult {
    const result = gcra(this.tats.get(key) ?? 0, now, policy);
    if (result.allowed) this.tats.set(key, result.tat);
    this.sweep(now);
    return result;
  }

  /** Keys held now (for the tests of the sweep). */
  get size(): number {
    return this.tats.size;
  }

  private sweep(now: number): void {
    if (now - this.sweptAt < SWEEP_EVERY_US) return;
    this.sweptAt = now;
    for (const [key, tat] of this.tats) if (tat <= now) this.tats.delete(key);
  }
}
