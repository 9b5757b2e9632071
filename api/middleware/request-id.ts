import { randomUUID } from 'node:crypto';
import type { ApiContext } from '../http/context.js';

/**
 * Every response carries `Request-Id`, and so does every log line and every event the request appends.
 * The id is always drawn here, never taken from the client, so that it identifies one exchange.
 */
export async function requestId(ctx: ApiContext, next: () => Promise<void>): Promise<void> {
  // randomUUID draws from a cached entropy pool: no system call per request.
  ctx.state.requestId = `req_${randomUUID().replaceAll('-', '')}`;
  ctx.set('Request-Id', ctx.state.requestId);
  await next();
}
