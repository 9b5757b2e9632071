import { problem } from '../../core/problems.js';
import type { ApiContext } from '../http/context.js';
import { HttpProblems } from '../http/problems.js';

/** Node's own test of whether an Expect asks for 100-continue (which Node answers before the request reaches Koa). */
const CONTINUE = /(?:^|\W)100-continue(?:$|\W)/i;

/**
 * What Node's HTTP server would otherwise refuse by itself, with an empty body (api/server.ts hands these
 * requests on): an HTTP/1.1 request without Host is a 400 (RFC 9112 3.2), an expectation other than
 * 100-continue cannot be met, 417 (RFC 9110 10.1.1). Refused here, they are problem details like any error.
 * And what Node lets through: a request with several Host lines is a 400 too (RFC 9112 3.2); Node keeps
 * the first and drops the others, where a proxy in front may have routed by another.
 */
export async function httpConformance(ctx: ApiContext, next: () => Promise<void>): Promise<void> {
  if (ctx.req.httpVersion === '1.1' && ctx.get('Host') === '')
    throw problem(HttpProblems.malformedRequest, 'an HTTP/1.1 request needs a Host header');
  if (hostLines(ctx.req.rawHeaders) > 1)
    throw problem(
      HttpProblems.malformedRequest,
      'a request has one Host header, not several',
      {},
      { Connection: 'close' },
    );
  const expectation = ctx.get('Expect');
  if (expectation !== '' && !CONTINUE.test(expectation))
    throw problem(HttpProblems.expectationFailed, 'this server meets no expectation but 100-continue');
  await next();
}

/** How many header lines are named Host (`rawHeaders` alternates names and values, as sent). */
function hostLines(rawHeaders: readonly string[]): number {
  let count = 0;
  for (let index = 0; index < rawHeaders.length; index += 2)
    if (rawHeaders[index]!.toLowerCase() === 'host') count += 1;
  return count;
}
