import { hashKey, keyPattern } from '../../core/auth/api-keys.js';
import type { Scope } from '../../core/auth/scopes.js';
import { problem } from '../../core/problems.js';
import { KEYS_PROJECTION, type KeysModel } from '../../projections/keys/keys.js';
import type { ApiContext } from '../http/context.js';
import { HttpProblems } from '../http/problems.js';

/** Query members that look like a key: refused by name, so that the client learns where keys go. */
const KEY_IN_QUERY = ['api_key', 'apikey', 'key', 'access_token', 'token'];

/**
 * `Authorization: Bearer <key>` only. The key is looked up by its SHA-256 in the keys projection held
 * in memory: no store read per request. Missing, malformed, unknown and revoked keys are all 401.
 *
 * A key created through another instance a moment ago is not in this one's read models until they poll, so a
 * key not found is looked up again once they have caught up with the store's head: a key that does not exist
 * costs one read of the head, and catch-ups asked for at once share one pass. A key revoked elsewhere still
 * works here until the next poll (at most the runner's poll interval).
 */
export async function authenticate(ctx: ApiContext): Promise<void> {
  const header = ctx.get('Authorization');
  if (!header) {
    const inQuery = KEY_IN_QUERY.find((name) => name in ctx.query);
    throw problem(
      HttpProblems.unauthorized,
      inQuery
        ? `keys are accepted in the Authorization header only, not in the query string (${inQuery})`
        : 'the Authorization header is missing; send `Authorization: Bearer <key>`',
      {},
      { 'WWW-Authenticate': 'Bearer' },
    );
  }
  const match = /^Bearer +(\S+) *$/i.exec(header);
  const config = ctx.services.config;
  if (!match || !keyPattern(config.keyPrefix).test(match[1]!)) {
    throw problem(
      HttpProblems.unauthorized,
      `the Authorization header must be \`Bearer ${config.keyPrefix}_live_…\` or \`Bearer ${config.keyPrefix}_test_…\``,
      {},
      { 'WWW-Authenticate': 'Bearer error="invalid_token"' },
    );
  }
  const { projections } = ctx.services;
  const hash = hashKey(match[1]!);
  let keys = projections.state<KeysModel>(KEYS_PROJECTION);
  let key = keys.bySha256.get(hash);
  if (!key) {
    await projections.waitForHead();
    keys = projections.state<KeysModel>(KEYS_PROJECTION);
    key = keys.bySha256.get(hash);
  }
  if (!key || key.revoked_at !== null) {
    throw problem(
      HttpProblems.unauthorized,
      key ? 'this key has been revoked' : 'this key is not known',
      {},
      { 'WWW-Authenticate': 'Bearer error="invalid_token"' },
    );
  }
  ctx.state.auth = {
    accountId: key.account_id,
    keyId: key.key_id,
    mode: key.mode,
    scopes: key.scopes,
    tier: keys.tiers.get(key.account_id)!,
  };
}

export function requireScope(ctx: ApiContext, scope: Scope): void {
  if (!ctx.state.auth.scopes.includes(scope)) {
    throw problem(HttpProblems.forbidden, `this key lacks the scope "${scope}" that this operation needs`, {
      required_scope: scope,
    });
  }
}
