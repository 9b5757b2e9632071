import { Readable } from 'node:stream';
import { auditAccount, type AccountAudit, type AuditedMovement } from '../../core/audit/account-audit.js';
import { accountStream } from '../../core/accounts/account.js';
import { accountIdOfStream } from '../../core/accounts/stream-name.js';
import { balanceChange } from '../../core/accounts/credit-movement.js';
import { bundleLines, type BundleContent } from '../../core/audit/log/bundle-export.js';
import type { BundleConsistency } from '../../core/audit/log/bundle.js';
import { AuditLogProblems } from '../../core/audit/log/problems.js';
import { Problems, problem } from '../../core/problems.js';
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

const base64Hash = { type: 'string', contentEncoding: 'base64', description: 'A SHA-256 hash, base64.' };
const proofSchema = {
  type: 'array',
  items: base64Hash,
  description: 'RFC 9162 section 2.1 proof: the hashes of the subtrees the verifier combines, base64.',
};

/** A tree size the log holds now: larger is `tree-size-exceeded`, naming the size it holds. */
async function requireTreeSize(ctx: ApiContext, size: number): Promise<void> {
  const head = await ctx.services.auditLog.integrate();
  if (size > head.size)
    throw problem(
      AuditLogProblems.treeSizeExceeded,
      `the audit log holds a tree of ${head.size} events; ${size} is beyond it`,
      { tree_size: head.size },
    );
}

/** How long an export waits for a checkpoint that covers the account's events: two intervals, and a margin. */
const coveringWaitMs = (ctx: ApiContext): number => 2 * ctx.services.auditLog.checkpointIntervalMs + 5_000;

/**
 * What the bundle of an account holds: its stream from the first event, a checkpoint that covers them all, and
 * the balance the ledger projection shows after its last movement. A movement appended meanwhile puts the
 * ledger ahead of the events read: read again (a few times at most).
 */
async function bundleContent(ctx: ApiContext, accountId: string, consistencyFrom: number | undefined) {
  const { store, projections, auditLog } = ctx.services;
  for (let attempt = 1; attempt <= 5; attempt += 1) {
    const events = await store.readStream(accountStream(accountId));
    const last = events.at(-1);
    if (!last) throw problem(Problems.notFound, `account ${accountId} has no history`);
    await auditLog.integrate();
    const leafIndexes = await auditLog.leafIndexes(events.map((event) => event.position));
    const checkpoint = await auditLog.checkpointCovering(leafIndexes.get(last.position) ?? 0, coveringWaitMs(ctx));
    if (!checkpoint || !leafIndexes.has(last.position)) {
      const retry = Math.ceil(auditLog.checkpointIntervalMs / 1000) + 1;
      throw problem(
        AuditLogProblems.checkpointPending,
        "no signed checkpoint covers the account's latest events yet",
        {},
        { 'Retry-After': String(retry) },
      );
    }
    await projections.waitFor(last.position);
    const ledger = ledgerBalance(projections.state<LedgerModel>(LEDGER_PROJECTION), accountId);
    const lastMovement = events.findLast((event) => balanceChange(event) !== null);
    if (ledger.position !== (lastMovement?.position ?? 0)) continue;
    let consistency: BundleConsistency | undefined;
    if (consistencyFrom !== undefined) {
      if (consistencyFrom > checkpoint.size)
        throw problem(
          AuditLogProblems.treeSizeExceeded,
          `the bundle's checkpoint is of ${checkpoint.size} events; consistency_from=${consistencyFrom} is beyond it`,
          { tree_size: checkpoint.size },
        );
      consistency = {
        from_size: consistencyFrom,
        from_root: (await auditLog.rootAt(consistencyFrom)).toString('base64'),
        proof: (await auditLog.consistencyProof(consistencyFrom, checkpoint.size)).map((hash) =>
          hash.toString('base64'),
        ),
      };
    }
    const content: BundleContent = {
      accountId,
      events,
      leafIndexes,
      checkpoint,
      balance: { credits_available: ledger.credits_available, credits_reserved: ledger.credits_reserved },
      consistency,
    };
    return content;
  }
  throw problem(Problems.conflict, "the account's credits kept moving during the export; ask again");
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
    defineRoute({
      method: 'GET',
      path: '/v1/audit/checkpoint',
      operationId: 'auditCheckpoint',
      summary: "The audit log's latest signed checkpoint",
      description:
        'The latest checkpoint of the transparency log of every event, as a C2SP tlog-checkpoint signed note: ' +
        "the log's origin, its tree size and its root hash (base64), a blank line, and the Ed25519 signature " +
        'line. A new one is signed every few seconds while events arrive. Keep one: a later one must extend it ' +
        '(GET /v1/audit/proofs/consistency), which `finsynth audit witness` checks. No key needed.',
      scope: null,
      responses: {
        200: {
          description: 'The signed note.',
          content: {
            'text/plain': {
              type: 'string',
              examples: ['example.com/finsynth/audit\n1234\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n\n— …\n'],
            },
          },
        },
      },
      async handle(ctx) {
        const checkpoint = await ctx.services.auditLog.latestCheckpoint();
        if (!checkpoint) throw problem(Problems.notFound, 'the audit log has signed no checkpoint yet');
        ctx.type = 'text/plain; charset=utf-8';
        ctx.body = checkpoint.note;
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/audit/public-key',
      operationId: 'auditPublicKey',
      summary: "The audit log's verifier key",
      description:
        'The key that verifies the checkpoints, as a note verifier key (golang.org/x/mod/sumdb/note): ' +
        '`<origin>+<key ID, 8 hex digits>+base64(0x01 ‖ Ed25519 public key)`. Take it from the operator too ' +
        '(`finsynth serve` prints it when it creates the key) and compare: a key fetched from the log itself ' +
        'proves nothing if the log is the one you doubt. No key needed.',
      scope: null,
      responses: {
        200: {
          description: 'The verifier key, one line.',
          content: { 'text/plain': { type: 'string', examples: ['example.com/finsynth/audit+1a2b3c4d+AeR…\n'] } },
        },
      },
      handle(ctx) {
        ctx.type = 'text/plain; charset=utf-8';
        ctx.body = `${ctx.services.auditLog.verifierKey}\n`;
      },
    }),
    defineRoute<Record<string, never>, { from: number; to: number }>({
      method: 'GET',
      path: '/v1/audit/proofs/consistency',
      operationId: 'auditConsistencyProof',
      summary: 'Prove that the log only grew between two sizes',
      description:
        'The RFC 9162 consistency proof that the tree of `to` events extends the tree of `from` events: with ' +
        'the roots of two checkpoints, it shows that nothing logged before the first was changed or removed. ' +
        "Only hashes: it reveals no account's data.",
      scope: 'audit:read',
      query: {
        properties: {
          from: { type: 'integer', minimum: 0, description: 'The older tree size (a checkpoint you kept).' },
          to: { type: 'integer', minimum: 0, description: 'The newer tree size, at most the tree the log holds.' },
        },
        required: ['from', 'to'],
      },
      responses: {
        200: {
          description: 'The proof.',
          content: {
            'application/json': {
              type: 'object',
              required: ['from', 'to', 'proof'],
              properties: { from: { type: 'integer' }, to: { type: 'integer' }, proof: proofSchema },
            },
          },
        },
      },
      problems: [Problems.badRequest, AuditLogProblems.treeSizeExceeded],
      async handle(ctx, { query }) {
        if (query.from > query.to) throw problem(Problems.badRequest, '`from` must not be larger than `to`');
        await requireTreeSize(ctx, query.to);
        const proof = await ctx.services.auditLog.consistencyProof(query.from, query.to);
        ctx.body = { from: query.from, to: query.to, proof: proof.map((hash) => hash.toString('base64')) };
      },
    }),
    defineRoute<Record<string, never>, { position: number; size: number }>({
      method: 'GET',
      path: '/v1/audit/proofs/inclusion',
      operationId: 'auditInclusionProof',
      summary: "Prove that one of the account's events is in the log",
      description:
        'The RFC 9162 inclusion proof of the event at global `position` in the tree of `size` events (a ' +
        "checkpoint's size). Only for the account's own events: any other position is `404 not-found`, whether " +
        'it exists or not. The proof is hashes only. Live keys only, as the credit audit.',
      scope: 'audit:read',
      query: {
        properties: {
          position: { type: 'integer', minimum: 1, description: "The event's global position (as the audit lists)." },
          size: { type: 'integer', minimum: 1, description: "The tree size: a checkpoint's." },
        },
        required: ['position', 'size'],
      },
      responses: {
        200: {
          description: 'The proof, with what it proves.',
          content: {
            'application/json': {
              type: 'object',
              required: ['position', 'leaf_index', 'tree_size', 'event_hash', 'proof'],
              properties: {
                position: { type: 'integer' },
                leaf_index: { type: 'integer', description: "The event's index in the log (0-based)." },
                tree_size: { type: 'integer' },
                event_hash: {
                  type: 'string',
                  description: "The event's hash (hex): its leaf is SHA-256(0x00 ‖ these 32 bytes).",
                },
                proof: proofSchema,
              },
            },
          },
        },
      },
      problems: [LiveKeyRequired, AuditLogProblems.treeSizeExceeded, AuditLogProblems.notInTree, Problems.notFound],
      async handle(ctx, { query }) {
        requireLiveKey(ctx, 'an inclusion proof of the credit history');
        await requireTreeSize(ctx, query.size);
        const [event] = await ctx.services.store.readAll({ after: query.position - 1, maxCount: 1 });
        if (!event || event.position !== query.position || accountIdOfStream(event.stream) !== ctx.state.auth.accountId)
          throw problem(Problems.notFound, `the account has no event at position ${query.position}`);
        const index = (await ctx.services.auditLog.leafIndexes([event.position])).get(event.position);
        if (index === undefined || index >= query.size)
          throw problem(
            AuditLogProblems.notInTree,
            `the event at position ${event.position} is not in the tree of ${query.size} events`,
          );
        const proof = await ctx.services.auditLog.inclusionProof(index, query.size);
        ctx.body = {
          position: event.position,
          leaf_index: index,
          tree_size: query.size,
          event_hash: event.hash,
          proof: proof.map((hash) => hash.toString('base64')),
        };
      },
    }),
    defineRoute<Record<string, never>, { consistency_from?: number }>({
      method: 'GET',
      path: '/v1/audit/credits/export',
      operationId: 'exportCreditHistory',
      summary: "Export the account's history with proofs, for offline verification",
      description:
        "A bundle (JSON Lines) of the account's events from its first, each with its inclusion proof in one " +
        'signed checkpoint, which the first line carries with the balance the service shows. ' +
        '`npx finsynth audit verify BUNDLE --public-key KEY` checks it with no server and no database ' +
        '(docs/audit.md). With `consistency_from`, the size of a checkpoint you kept, the bundle also proves ' +
        'that its checkpoint extends that one. Waits (seconds at most) for a checkpoint that covers the ' +
        'latest event. Live keys only, as the credit audit.',
      scope: 'audit:read',
      query: {
        properties: {
          consistency_from: {
            type: 'integer',
            minimum: 0,
            description: 'The size of a checkpoint you kept: the bundle carries the consistency proof from it.',
          },
        },
      },
      responses: {
        200: {
          description: 'The bundle.',
          headers: {
            'Content-Disposition': {
              description: 'attachment; filename="finsynth-audit-<account>-<tree size>.ndjson"',
              schema: { type: 'string' },
            },
          },
          content: {
            'application/x-ndjson': {
              type: 'string',
              description:
                'Line 1: {format, account_id, checkpoint, balance, consistency?}; then one line per event: ' +
                '{leaf_index, proof, event}; every line canonical JSON (RFC 8785).',
            },
          },
        },
      },
      problems: [
        LiveKeyRequired,
        AuditLogProblems.treeSizeExceeded,
        AuditLogProblems.checkpointPending,
        Problems.conflict,
      ],
      async handle(ctx, { query }) {
        requireLiveKey(ctx, 'the export of the credit history');
        const { accountId } = ctx.state.auth;
        const content = await bundleContent(ctx, accountId, query.consistency_from);
        ctx.type = 'application/x-ndjson';
        ctx.set(
          'Content-Disposition',
          `attachment; filename="finsynth-audit-${accountId}-${content.checkpoint.size}.ndjson"`,
        );
        ctx.body = Readable.from(bundleLines(ctx.services.auditLog, content));
      },
    }),
  ],
};
