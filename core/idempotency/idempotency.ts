import { createHash } from 'node:crypto';
import { defineProblem, problem } from '../problems.js';
import type { Mode } from '../events/envelope.js';
import type { Decider, DomainEvent } from '../domain/decider.js';

/**
 * Idempotency records (IETF draft "The Idempotency-Key HTTP Header Field"), kept as events so that
 * they survive a restart and are shared by every instance of a fleet. One stream per (account, mode,
 * key): a claim appended with the revision that was read decides which of two racing requests runs.
 */

/** How long a completed response is replayed: the draft's "at least 24 hours". */
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

export type IdempotencyState =
  | { status: 'free' }
  | { status: 'in_flight'; fingerprint: string; requestId: string; renewedAt: string }
  | { status: 'completed'; fingerprint: string; recordedAt: string; response: RecordedResponse };

export type ClaimKey = { type: 'ClaimKey'; accountId: string; mode: Mode; fingerprint: string; requestId: string; at: string };
/** The commands of the request holding the claim: another request's (whose lease was taken over) change nothing. */
export type RenewClaim = { type: 'RenewClaim'; requestId: string; at: string };
export type RecordResponse = { type: 'RecordResponse'; requestId: string; response: RecordedResponse; at: string };
export type ReleaseKey = { type: 'ReleaseKey'; requestId: string; reason: string; at: string };
export type IdempotencyCommand = ClaimKey | RenewClaim | RecordResponse | ReleaseKey;

export type IdempotencyKeyClaimed = DomainEvent<
  'IdempotencyKeyClaimed',
  { account_id: string; mode: Mode; fingerprint: string; request_id: string; claimed_at: string }
>;
export type IdempotencyClaimRenewed = DomainEvent<'IdempotencyClaimRenewed', { request_id: string; renewed_at: string }>;
export type IdempotentResponseRecorded = DomainEvent<'IdempotentResponseRecorded', RecordedResponse & { recorded_at: string }>;
export type IdempotencyKeyReleased = DomainEvent<'IdempotencyKeyReleased', { reason: string; released_at: string }>;
export type IdempotencyEvent = IdempotencyKeyClaimed | IdempotencyClaimRenewed | IdempotentResponseRecorded | IdempotencyKeyReleased;

export const IdempotencyKeyReused = defineProblem({
  slug: 'idempotency-key-reused',
  title: 'Unprocessable Content',
  status: 422,
  description: 'The Idempotency-Key was already used with a different method, path or body; use a new key for a new request.',
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
    version: 1,
    schema: {
      type: 'object',
      required: ['account_id', 'mode', 'fingerprint', 'request_id', 'claimed_at'],
      additionalProperties: false,
      properties: {
        account_id: { type: 'string', minLength: 1 },
        mode: { enum: ['live', 'test'] },
        fingerprint: { type: 'string', pattern: '^[0-9a-f]{64}$' },
        request_id: { type: 'string' },
        claimed_at: { type: 'string', format: 'date-time' },
      },
    },
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
      case 'IdempotencyKeyClaimed':
        return { status: 'in_flight', fingerprint: event.data.fingerprint, requestId: event.data.request_id, renewedAt: event.data.claimed_at };
      case 'IdempotencyClaimRenewed':
        return state.status === 'in_flight' ? { ...state, renewedAt: event.data.renewed_at } : state;
      case 'IdempotentResponseRecorded': {
        const { recorded_at, ...response } = event.data;
        return { status: 'completed', fingerprint: state.status === 'free' ? '' : state.fingerprint, recordedAt: recorded_at, response };
      }
      case 'IdempotencyKeyReleased':
        return { status: 'free' };
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'ClaimKey': {
        const claim: IdempotencyKeyClaimed = {
          type: 'IdempotencyKeyClaimed',
          data: { account_id: command.accountId, mode: command.mode, fingerprint: command.fingerprint, request_id: command.requestId, claimed_at: command.at },
        };
        if (state.status === 'free') return [claim];
        if (state.status === 'completed' && elapsed(state.recordedAt, command.at) > RETENTION_MS) return [claim];
        if (state.status === 'in_flight' && elapsed(state.renewedAt, command.at) > CLAIM_LEASE_MS) return [claim];
        if (state.fingerprint !== command.fingerprint) {
          throw problem(IdempotencyKeyReused, 'this Idempotency-Key was used for a different request');
        }
        if (state.status === 'in_flight') throw problem(IdempotencyInFlight, 'the first request with this Idempotency-Key is still in flight');
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

/** Whether `requestId` holds the claim: it is in flight, and no retry took it over. */
export const holds = (state: IdempotencyState, requestId: string): boolean => state.status === 'in_flight' && state.requestId === requestId;
