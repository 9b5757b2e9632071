import { auditAccount, type AccountAudit, type AuditedMovement } from '../../core/audit/account-audit.js';
import { accountStream } from '../../core/accounts/account.js';
import { LEDGER_PROJECTION, ledgerBalance, type LedgerModel } from '../../projections/ledger/ledger.js';
import type { ApiContext } from '../http/context.js';
import { LiveKeyRequired, requireLiveKey } from '../http/modes.js';
import { paginate } from '../http/pagination.js';
import { defineRoute, type RouteGroup } from '../http/route.js';
import { listQuery, type ListQuery } from '../http/schemas.js';

const balance = {
  type: 'object',
  required: ['credits_available', 'credits_reserved'],
  properties: { credits_available: { type: 'integer' }, credits_reserved: { type: 'integer' } },
};

const movementSchema = {
  type: 'object',
  required: [
    'position',
    'revision',
    'type',
    'reference',
    'recorded_at',
    'change',
    'credits_available',
    'credits_reserved',
    'hash',
    'hash_valid',
  ],
  properties: {
    position: { type: 'integer', description: 'Global position of the event in the store.' },
    revision: { type: 'integer', description: 'Revision of the event in the account stream.' },
    type: { type: 'string', examples: ['CreditsDebited'] },
    reference: { type: 'string' },
    recorded_at: { type: 'string', format: 'date-time' },
    change: balance,
    credits_available: { type: 'integer', description: 'Running balance after this movement.' },
    credits_reserved: { type: 'integer' },
    hash: { type: 'string', description: 'SHA-256 chaining this event to the previous one of the stream.' },
    hash_valid: { type: 'boolean' },
  },
};

const verdictSchema = {
  type: 'object',
  required: ['holds', 'chain_intact', 'chain_breaks', 'events', 'replayed', 'projected', 'balance_matches'],
  properties: {
    holds: { type: 'boolean', description: "The chain is intact and the replayed balance equals the projection's." },
    chain_intact: { type: 'boolean' },
    chain_breaks: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          stream: { type: 'string' },
          revision: { type: 'integer' },
          position: { type: 'integer' },
          reason: { type: 'string' },
        },
      },
    },
    events: { type: 'integer', description: 'Events of the account stream replayed.' },
    replayed: balance,
    projected: balance,
    balance_matches: { type: 'boolean' },
  },
};

/**
 * Replays the account's stream and compares with the ledger once it has applied the last event read.
 * A movement appended in between puts the ledger ahead of the replay: read again (a few times at most).
 */
async function replayAgainstLedger(ctx: ApiContext, accountId: string): Promise<AccountAudit> {
  const { store, projections } = ctx.services;
  for (let attempt = 1; ; attempt += 1) {
    const events = await store.readStream(accountStream(accountId));
    await projections.waitFor(events.at(-1)?.position ?? 0);
    const ledger = ledgerBalance(projections.state<LedgerModel>(LEDGER_PROJECTION), accountId);
    const audit = auditAccount(accountStream(accountId), events, {
      credits_available: ledger.credits_available,
      credits_reserved: ledger.credits_reserved,
    });
    if (ledger.position === (audit.movements.at(-1)?.position ?? 0) || attempt === 3) return audit;
  }
}

export const auditRoutes: RouteGroup = {
  tag: 'Audit',
  description: 'The credit history of the account, replayed from its events and verified.',
  routes: [
    defineRoute<Record<string, never>, ListQuery>({
      method: 'GET',
      path: '/v1/audit/credits',
      operationId: 'auditCredits',
      summary: 'Audit the credit history',
      description:
        'Replays the account stream from its first event. `data` lists the credit movements in order, ' +
        'each with its running balance, position and hash (test-mode work moves no credit and is not listed); ' +
        '`verdict` covers the whole history: the hash chain, and the replayed balance against the balance ' +
        'the ledger projection shows. Live keys only: credits are live money.',
      scope: 'audit:read',
      query: listQuery,
      responses: {
        200: {
          description: 'The verdict and a page of movements.',
          content: {
            'application/json': {
              type: 'object',
              required: ['account_id', 'verdict', 'data', 'has_more', 'next_cursor'],
              properties: {
                account_id: { type: 'string' },
                verdict: verdictSchema,
                data: { type: 'array', items: movementSchema },
                has_more: { type: 'boolean' },
                next_cursor: { type: ['string', 'null'] },
              },
            },
          },
        },
      },
      problems: [LiveKeyRequired],
      async handle(ctx, { query }) {
        requireLiveKey(ctx, 'the credit audit');
        const { accountId } = ctx.state.auth;
        const { verdict, movements } = await replayAgainstLedger(ctx, accountId);
        ctx.body = {
          account_id: accountId,
          verdict,
          ...paginate<AuditedMovement>(movements, (movement) => String(movement.position), query),
        };
      },
    }),
  ],
};
