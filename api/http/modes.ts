import type { Mode } from '../../core/events/envelope.js';
import { defineProblem, problem } from '../../core/problems.js';
import type { ApiContext } from './context.js';

/**
 * Test and live are kept apart as Stripe keeps them: a test key sees only test objects and test usage,
 * and nothing that live work or live money did; a live key sees live ones, and may read its account's
 * test usage by asking for it (`?mode=test`). Money (billing, the credit balance and its audit) is live
 * only: the sandbox moves none.
 */
export const LiveKeyRequired = defineProblem({
  slug: 'live-key-required',
  title: 'Forbidden',
  status: 403,
  description:
    'Only a live key may do this: buy credits, change the subscription, read billing, the credit balance ' +
    'or its audit (money exists in live mode only), or read live usage. ' +
    'Test keys run in the sandbox and see test objects and test usage only.',
});

/** Refuses a test key: the operation moves or shows live money or live work. */
export function requireLiveKey(ctx: ApiContext, what: string): void {
  if (ctx.state.auth.mode === 'live') return;
  throw problem(LiveKeyRequired, `${what} needs a live key; test keys see the sandbox only`);
}

/** The `mode` query parameter of a read that a live key may point at the sandbox. */
export const readModeParameter = {
  enum: ['live', 'test'],
  description:
    "Default: the mode of the key asking. A live key may ask for `test` (its account's sandbox); " +
    'a test key sees test only (`live` is 403 `live-key-required`).',
};

/** The mode a read shows: the key's own, or the sandbox when a live key asks for it. */
export function readMode(ctx: ApiContext, asked: Mode | undefined): Mode {
  const own = ctx.state.auth.mode;
  if (asked === undefined || asked === own) return own;
  if (own === 'test') throw problem(LiveKeyRequired, 'a test key reads test usage only; live usage needs a live key');
  return asked;
}
