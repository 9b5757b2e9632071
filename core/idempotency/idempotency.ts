import { createHash } from 'node:crypto';
import { defineProblem, problem } from '../problems.js';
import type { Mode } from '../events/envelope.js';
import type { Decider, DomainEvent } from '../commands/decider.js';

/**
 * Idempotency records (IETF draft "The Idempotency-Key HTTP Header Field"), kept as events so that
 * they survive a restart and are shared by every instance of a fleet. One stream per (account, mode,
 * key): a claim appended with the revision that was read decides which of two racing requests runs.
 */

/**
 * How long a use of a key lasts after its last sign of life (its response recorded, its claim released
 * or renewed): the draft's "at least 24 hours". Within it, a completed response is replayed and a retry
 * must carry the same request; after it, the key may be used afresh, for another request too.
 */
export const RETENTION_MS = 24 * 60 * 60 * 1000;
/**
 * A claim is a lease: the request holding it renews it every CLAIM_RENEW_MS while it runs (and while its
 * response streams). A claim neither renewed nor settled for CLAIM_LEASE_MS belongs to a request whose
 * instance died, and a retry takes it over. Three renewals per lease: a request whose instance lives
 * survives two missed ones (a store hiccup, a long pause) and is never run twice.
 */
export const CLAIM_LEASE_MS = 30 * 1000;
export const CLAIM_RENEW_MS = 10 * 1000;

export interface RecordedResponse {
  status: number;
  headers: Record<string, string>;
  /** null when the body was too large to keep (see MAX_RECORDED_BODY_BYTES). */
  body_base64: string | null;
}

/**
 * A use of a key: the request it was first claimed for (`fingerprint`) and that request's id, which every
 * retry of it carries on (after a release or a takeover), so that work done under the key (a purchase)
 * is the same work whichever attempt does it.
 */
interface KeyUse {
  fingerprint: string;
  originalRequestId: string;
}

export type IdempotencyState =
  | { status: 'free' }
  | (KeyUse & { status: 'in_flight'; requestId: string; renewedAt: string })
  /** A 5xx released the claim: a retry of the same request does the work again, another request is refused. */
  | (KeyUse & { status: 'released'; releasedAt: string })
  | (KeyUse & { status: 'completed'; recordedAt: string; response: RecordedResponse });

export type ClaimKey = {
  type: 'ClaimKey';
  accountId: string;
  mode: Mode;
  fingerprint: string;
  requestId: string;
  at: string;
};
/** The commands of the request holding the claim: another request's (whose lease was taken over) change nothing. */
export type RenewClaim = { type: 'RenewClaim'; requestId: string; at: string };
export type RecordResponse = { type: 'RecordResponse'; requestId: string; response: RecordedResponse; at: string };
export type ReleaseKey = { type: 'ReleaseKey'; requestId: string; reason: string; at: string };
export type IdempotencyCommand = ClaimKey | RenewClaim | RecordResponse | ReleaseKey;

export type IdempotencyKeyClaimed = DomainEvent<
  'IdempotencyKeyClaimed',
  {
    account_id: string;
    mode: Mode;
    fingerprint: string;
    request_id: string;
    original_request_id: string;
    claimed_at: string;
  }
>;
export type IdempotencyClaimRenewed = DomainEvent<
  'IdempotencyClaimRenewed',
  { request_id: string; renewed_at: string }
>;
export type IdempotentResponseRecorded = DomainEvent<
  'IdempotentResponseRecorded',
  RecordedResponse & { recorded_at: string }
>;
export type IdempotencyKeyReleased = DomainEvent<'IdempotencyKeyReleased', { reason: string; released_at: string }>;
export type IdempotencyEvent =
  IdempotencyKeyClaimed | IdempotencyClaimRenewed | IdempotentResponseRecorded | IdempotencyKeyReleased;

export const IdempotencyKeyReused = defineProblem({
  slug: 'idempotency-key-reused',
  title: 'Unprocessable Content',
  status: 422,
  description:
    'The Idempotency-Key was already used with a different method, path, ' +
    'query or body (a retry after a 5xx too); use a new key for a new request.',
});
export const IdempotencyInFlight = defineProblem({
  slug: 'idempotency-in-flight',
  title: 'Conflict',
  status: 409,
  description: 'A request with this Idempotency-Key is still being processed; retry after it has finished.',
});

export const idempotencyStream = (accountId: string, mode: Mode, key: string): string =>
  `idempotency-${createHash('sha256').update(`${accountId}\n${mode}\n${key}`).digest('hex')}`;

const elapsed = (from: string, to: string): number => Date.parse(to) - Date.parse(from);

export const idempotencyEvents = [
  {
    type: 'IdempotencyKeyClaimed',
    version: 2,
    schema: {
      type: 'object',
      required: ['account_id', 'mode', 'fingerprint', 'request_id', 'original_request_id', 'claimed_at'],
      additionalProperties: false,
      properties: {
        account_id: { type: 'string', minLength: 1 },
        mode: { enum: ['live', 'test'] },
        fingerprint: { type: 'string', pattern: '^[0-9a-f]{64}$' },
        request_id: { type: 'string' },
        original_request_id: { type: 'string' },
        claimed_at: { type: 'string', format: 'date-time' },
      },
    },
    // v1 did not say which request a retry continued: the use of a key that began under v1 has none.
    upcasters: { 1: (data: unknown) => ({ ...(data as object), original_request_id: UNRECORDED_ORIGINAL }) },
  },
  {
    type: 'IdempotencyClaimRenewed',
    version: 1,
    schema: {
      type: 'object',
      required: ['request_id', 'renewed_at'],
      additionalProperties: false,
      properties: { request_id: { type: 'string' }, renewed_at: { type: 'string', format: 'date-time' } },
    },
  },
  {
    type: 'IdempotentResponseRecorded',
    version: 1,
    schema: {
      type: 'object',
      required: ['status', 'headers', 'body_base64', 'recorded_at'],
      additionalProperties: false,
      properties: {
        status: { type: 'integer', minimum: 100, maximum: 599 },
        headers: { type: 'object', additionalProperties: { type: 'string' } },
        body_base64: { type: ['string', 'null'] },
        recorded_at: { type: 'string', format: 'date-time' },
      },
    },
  },
  {
    type: 'IdempotencyKeyReleased',
    version: 1,
    schema: {
      type: 'object',
      required: ['reason', 'released_at'],
      additionalProperties: false,
      properties: { reason: { type: 'string' }, released_at: { type: 'string', format: 'date-time' } },
    },
  },
];

export const idempotencyDecider: Decider<IdempotencyState, IdempotencyCommand, IdempotencyEvent> = {
  initialState: () => ({ status: 'free' }),
  evolve(state, event) {
    switch (event.type) {
      case 'IdempotencyKeyClaimed': {
        const { fingerprint, request_id, original_request_id, claimed_at } = event.data;
        return {
          status: 'in_flight',
          fingerprint,
          originalRequestId: original_request_id,
          requestId: request_id,
          renewedAt: claimed_at,
        };
      }
      case 'IdempotencyClaimRenewed':
        return state.status === 'in_flight' ? { ...state, renewedAt: event.data.renewed_at } : state;
      case 'IdempotentResponseRecorded': {
        if (state.status !== 'in_flight') return state;
        const { recorded_at, ...response } = event.data;
        return {
          status: 'completed',
          fingerprint: state.fingerprint,
          originalRequestId: state.originalRequestId,
          recordedAt: recorded_at,
          response,
        };
      }
      case 'IdempotencyKeyReleased':
        if (state.status !== 'in_flight') return state;
        return {
          status: 'released',
          fingerprint: state.fingerprint,
          originalRequestId: state.originalRequestId,
          releasedAt: event.data.released_at,
        };
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'ClaimKey': {
        const claim = (originalRequestId: string): IdempotencyKeyClaimed => ({
          type: 'IdempotencyKeyClaimed',
          data: {
            account_id: command.accountId,
            mode: command.mode,
            fingerprint: command.fingerprint,
            request_id: command.requestId,
            original_request_id: originalRequestId,
            claimed_at: command.at,
          },
        });
        if (state.status === 'free' || elapsed(lastSignOfLife(state), command.at) > RETENTION_MS)
          return [claim(command.requestId)];
        // Checked before a retry may take over, so that a retry never does another request's work.
        if (state.fingerprint !== command.fingerprint) {
          throw problem(IdempotencyKeyReused, 'this Idempotency-Key was used for a different request');
        }
        if (state.status === 'released') return [claim(state.originalRequestId)];
        if (state.status === 'in_flight') {
          if (elapsed(state.renewedAt, command.at) > CLAIM_LEASE_MS) return [claim(state.originalRequestId)];
          throw problem(IdempotencyInFlight, 'the first request with this Idempotency-Key is still in flight');
        }
        // Completed with the same request: nothing to record, the caller replays the stored response.
        return [];
      }
      case 'RenewClaim':
        if (!holds(state, command.requestId)) return [];
        return [{ type: 'IdempotencyClaimRenewed', data: { request_id: command.requestId, renewed_at: command.at } }];
      case 'RecordResponse':
        if (!holds(state, command.requestId)) return [];
        return [{ type: 'IdempotentResponseRecorded', data: { ...command.response, recorded_at: command.at } }];
      case 'ReleaseKey':
        if (!holds(state, command.requestId)) return [];
        return [{ type: 'IdempotencyKeyReleased', data: { reason: command.reason, released_at: command.at } }];
    }
  },
};

/** When the use of the key last showed life: RETENTION_MS after it, the use is over. */
function lastSignOfLife(state: Exclude<IdempotencyState, { status: 'free' }>): string {
  switch (state.status) {
    case 'in_flight':
      return state.renewedAt;
    case 'released':
      return state.releasedAt;
    case 'completed':
      return state.recordedAt;
  }
}

/**
 * The original request of a key's use that began with a claim of version 1, which did not record it.
 * What was derived from the key alone then (a purchase's reference) stays so for every retry of that use.
 */
export const UNRECORDED_ORIGINAL = '';

/** Whether `requestId` holds the claim: it is in flight, and no retry took it over. */
export const holds = (
  state: IdempotencyState,
  requestId: string,
): state is Extract<IdempotencyState, { status: 'in_flight' }> =>
  state.status === 'in_flight' && state.requestId === requestId;

/**
 * The request whose retry `requestId` is, if it holds the claim (itself, for a first attempt): the same
 * for every attempt of one use of the key, and another for a later use of it.
 */
export const originalRequestOf = (state: IdempotencyState, requestId: string): string | null =>
  holds(state, requestId) ? state.originalRequestId : null;
