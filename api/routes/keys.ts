import { SCOPES, type Scope } from '../../core/auth/scopes.js';
import { issueKey, revokeKey } from '../../core/accounts/keys-service.js';
import { KeyNotFound, ScopeEscalation } from '../../core/accounts/keys.js';
import { KEYS_PROJECTION, accountKeys, type KeyRecord, type KeysModel } from '../../projections/keys/keys.js';
import type { ApiContext } from '../http/context.js';
import { paginate } from '../http/pagination.js';
import { defineRoute, type RouteGroup } from '../http/route.js';
import { listQuery, pageSchema, type ListQuery } from '../http/schemas.js';

const keySchema = {
  type: 'object',
  required: ['id', 'name', 'mode', 'scopes', 'prefix', 'created_at', 'revoked_at'],
  additionalProperties: false,
  properties: {
    id: { type: 'string', examples: ['key_4fQ9…'] },
    name: { type: ['string', 'null'] },
    mode: { enum: ['live', 'test'] },
    scopes: { type: 'array', items: { enum: [...SCOPES] } },
    prefix: {
      type: 'string',
      description: 'The first characters of the key, to tell keys apart; the secret is never shown again.',
    },
    created_at: { type: 'string', format: 'date-time' },
    revoked_at: { type: ['string', 'null'], format: 'date-time' },
  },
};

const issuedKeySchema = {
  ...keySchema,
  required: [...keySchema.required, 'secret'],
  properties: {
    ...keySchema.properties,
    secret: { type: 'string', description: 'The key itself: shown in this response only.' },
  },
};

function keyView(key: KeyRecord) {
  return {
    id: key.key_id,
    name: key.name,
    mode: key.mode,
    scopes: key.scopes,
    prefix: key.prefix,
    created_at: key.issued_at,
    revoked_at: key.revoked_at,
  };
}

function metadataOf(ctx: ApiContext) {
  return { request_id: ctx.state.requestId, key_id: ctx.state.auth.keyId, mode: ctx.state.auth.mode };
}

/** The key as the projection shows it once it has applied the command's events (read-your-writes). */
async function keyAfter(ctx: ApiContext, position: number, keyId: string): Promise<KeyRecord> {
  await ctx.services.projections.waitFor(position);
  return ctx.services.projections.state<KeysModel>(KEYS_PROJECTION).byId.get(keyId)!;
}

/**
 * Keys of the account. A key manages keys of its own mode only (live keys live keys, test keys test
 * keys: the sandbox cannot mint production credentials), and grants at most the scopes it holds.
 */
export const keysRoutes: RouteGroup = {
  tag: 'Keys',
  description: 'API keys of the account.',
  routes: [
    defineRoute<Record<string, never>, Record<string, never>, { name?: string; scopes?: Scope[] } | undefined>({
      method: 'POST',
      path: '/v1/keys',
      operationId: 'issueKey',
      summary: 'Issue a key',
      description:
        'Issues a key of the mode of the key asking, with the scopes given (default: ' +
        "all of the asking key's scopes). The secret is in this response only.",
      scope: 'keys:write',
      secretResponse: true,
      body: {
        required: false,
        content: {
          'application/json': {
            type: 'object',
            additionalProperties: false,
            properties: {
              name: { type: 'string', minLength: 1, maxLength: 100, examples: ['nightly export'] },
              // Typed items: ajv then checks uniqueness with an index, not by comparing every pair.
              scopes: {
                type: 'array',
                items: { type: 'string', enum: [...SCOPES] },
                minItems: 1,
                maxItems: SCOPES.length,
                uniqueItems: true,
                examples: [['jobs:read', 'jobs:write']],
              },
            },
          },
        },
      },
      responses: {
        201: { description: 'The key, with its secret.', content: { 'application/json': issuedKeySchema } },
      },
      problems: [ScopeEscalation],
      async handle(ctx, { body }) {
        const { accountId, mode, scopes } = ctx.state.auth;
        const issued = await issueKey(ctx.services, {
          accountId,
          mode,
          scopes: body?.scopes ?? [...scopes],
          name: body?.name ?? null,
          issuerScopes: scopes,
          metadata: metadataOf(ctx),
        });
        const key = await keyAfter(ctx, issued.position, issued.keyId);
        ctx.status = 201;
        ctx.body = { ...keyView(key), secret: issued.secret };
      },
    }),
    defineRoute<Record<string, never>, ListQuery>({
      method: 'GET',
      path: '/v1/keys',
      operationId: 'listKeys',
      summary: 'List keys',
      description:
        'Keys of the account in the mode of the key asking, newest first, revoked ones included. Never the secrets.',
      scope: 'keys:read',
      query: listQuery,
      responses: { 200: { description: 'A page of keys.', content: { 'application/json': pageSchema(keySchema) } } },
      handle(ctx, { query }) {
        const { accountId, mode } = ctx.state.auth;
        const keys = accountKeys(ctx.services.projections.state<KeysModel>(KEYS_PROJECTION), accountId, mode);
        const page = paginate(keys, (key) => key.key_id, query);
        ctx.body = { ...page, data: page.data.map(keyView) };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/keys/current',
      operationId: 'getCurrentKey',
      summary: 'The key asking',
      description:
        'The key this request is authenticated with: its id, name, mode and scopes, so that a client such as ' +
        'the web console offers only what the key may do. Never the secret.',
      scope: 'keys:read',
      responses: { 200: { description: 'The key.', content: { 'application/json': keySchema } } },
      handle(ctx) {
        const keys = ctx.services.projections.state<KeysModel>(KEYS_PROJECTION);
        // Authentication found the key in this very model, so it is there.
        ctx.body = keyView(keys.byId.get(ctx.state.auth.keyId)!);
      },
    }),
    defineRoute<{ id: string }>({
      method: 'DELETE',
      path: '/v1/keys/{id}',
      operationId: 'revokeKey',
      summary: 'Revoke a key',
      description:
        'Revokes the key at once on every instance (within a second). ' +
        'Revoking a revoked key changes nothing and answers the same.',
      scope: 'keys:write',
      params: { id: { type: 'string', minLength: 1, maxLength: 64, examples: ['key_4fQ9xLm2Rt7Vb1Kc8NpZ'] } },
      responses: { 200: { description: 'The revoked key.', content: { 'application/json': keySchema } } },
      problems: [KeyNotFound],
      async handle(ctx, { params }) {
        const { accountId, mode } = ctx.state.auth;
        const { position } = await revokeKey(ctx.services, accountId, mode, params.id, metadataOf(ctx));
        ctx.body = keyView(await keyAfter(ctx, position, params.id));
      },
    }),
  ],
};
