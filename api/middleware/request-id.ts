import { randomBase62 } from '../../core/auth/api-keys.js';
import type { ApiContext } from '../context.js';

/**
 * Every response carries `Request-Id`, and so does every log line and every event the request appends.
 * The id is always drawn here, never taken from the client, so that it identifies one exchange.
 */
export async function requestId(ctx: ApiContext, next: () => Promise<void>): Promise<void> {
  ctx.state.requestId = `req_${randomBase62(20)}`;
  ctx.set('Request-Id', ctx.state.requestId);
  await next();
}
