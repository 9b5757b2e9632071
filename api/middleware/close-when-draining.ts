import type { ApiContext } from '../http/context.js';

/**
 * While the server drains, every response closes its connection: a keep-alive socket would otherwise
 * hold the shutdown until the grace period ends. Set after the work, for requests that began before.
 */
export async function closeWhenDraining(ctx: ApiContext, next: () => Promise<void>): Promise<void> {
  await next();
  if (ctx.lifecycle.draining) ctx.set('Connection', 'close');
}
