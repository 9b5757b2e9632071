import { problem } from '../../core/problems.js';
import type { ApiContext } from '../context.js';
import { HttpProblems } from '../problems.js';

/** Node's own test of whether an Expect asks for 100-continue (which Node answers before the request reaches Koa). */
const CONTINUE = /(?:^|\W)100-continue(?:$|\W)/i;

/**
 * What Node's HTTP server would otherwise refuse by itself, with an empty body (api/server.ts hands these
 * requests on): an HTTP/1.1 request without Host is a 400 (RFC 9112 3.2), an expectation other than
 * 100-continue cannot be met, 417 (RFC 9110 10.1.1). Refused here, they are problem details like any error.
 */
export async function httpConformance(ctx: ApiContext, next: () => Promise<void>): Promise<void> {
  if (ctx.req.httpVersion === '1.1' && ctx.get('Host') === '') throw problem(HttpProblems.malformedRequest, 'an HTTP/1.1 request needs a Host header');
  const expectation = ctx.get('Expect');
  if (expectation !== '' && !CONTINUE.test(expectation)) throw problem(HttpProblems.expectationFailed, 'this server meets no expectation but 100-continue');
  await next();
}
