import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { GcraPolicy, GcraResult } from './gcra.js';

/**
 * gcra() of gcra.ts as one atomic step in Redis, so that every instance of a fleet draws
 * from one bucket per key. "Now" is the Redis server's clock (TIME), which all instances share, unless
 * the caller passes one (tests drive it). The TAT is written as a whole number of microseconds and
 * expires a minute after the bucket has refilled: a forgotten bucket is a full one, and the margin keeps
 * a key whose clock is not the server's (a test's) from expiring early.
 * KEYS[1]: the bucket. ARGV: interval (µs), window (µs), now (µs, or empty for TIME).
 * Returns {1 admitted | 0 refused, the TAT stored, the debt in µs}.
 */
const SCRIPT = `
local interval = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local now = tonumber(ARGV[3])
if now == nil then
  local time = redis.call('TIME')
  now = tonumber(time[1]) * 1000000 + tonumber(time[2])
end
local stored = tonumber(redis.call('GET', KEYS[1]) or '0')
local base = math.max(stored, now)
local next = base + interval
if next - now > window then
  return {0, string.format('%.0f', stored), base - now}
end
redis.call('SET', KEYS[1], string.format('%.0f', next), 'PX', math.ceil((next - now) / 1000) + 60000)
return {1, string.format('%.0f', next), next - now}
`;
const SHA = createHash('sha1').update(SCRIPT).digest('hex');

export class RedisGcra {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  /** Whether a command sent now would go out (ioredis refuses at once otherwise: no offline queue). */
  get connected(): boolean {
    return this.redis.status === 'ready';
  }

  async take(key: string, policy: GcraPolicy, now?: number): Promise<GcraResult> {
    const args = [`${this.prefix}${key}`, policy.intervalUs, policy.windowUs, now ?? ''] as const;
    const reply = await this.redis.evalsha(SHA, 1, ...args).catch((error: unknown) => {
      // The first call on a server (or after its script cache was flushed) loads the script.
      if (error instanceof Error && error.message.startsWith('NOSCRIPT')) return this.redis.eval(SCRIPT, 1, ...args);
      throw error;
    });
    return resultOf(reply);
  }
}

function resultOf(reply: unknown): GcraResult {
  if (Array.isArray(reply) && reply.length === 3) {
    const [allowed, tat, debtUs] = reply.map(Number);
    if (Number.isSafeInteger(tat) && Number.isSafeInteger(debtUs)) return { allowed: allowed === 1, tat, debtUs };
  }
  throw new Error(`the rate limit script answered ${JSON.stringify(reply)}`);
}
