import { problem } from '../../core/problems.js';
import type { ApiContext } from '../http/context.js';
import { HttpProblems } from '../http/problems.js';

/**
 * The tier's limit, per account (live and test keys share it). Every authenticated response carries
 * the IETF RateLimit-Policy and RateLimit headers (draft-ietf-httpapi-ratelimit-headers, structured
 * fields: q = quota, w = window in seconds, r = remaining, t = seconds until the quota is whole again).
 */
export async function rateLimit(ctx: ApiContext): Promise<void> {
  const { accountId, tier } = ctx.state.auth;
  const decision = await ctx.services.rateLimits.consume(accountId, tier);
  const policy = `"${decision.tier}"`;
  ctx.set('RateLimit-Policy', `${policy};q=${decision.limit};w=1`);
  ctx.set('RateLimit', `${policy};r=${decision.remaining};t=${decision.resetSeconds}`);
  if (!decision.allowed) {
    const retryAfter = decision.retryAfterSeconds;
    throw problem(
      HttpProblems.rateLimited,
      `the ${decision.tier} tier allows ${decision.limit} requests per second; retry in ${retryAfter} s`,
      {},
      { 'Retry-After': String(retryAfter) },
    );
  }
}
