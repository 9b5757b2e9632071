import { deciderSpec } from '../jobs/decider-spec.js';
import {
  CLAIM_LEASE_MS,
  IdempotencyInFlight,
  IdempotencyKeyReused,
  RETENTION_MS,
  idempotencyDecider,
  type ClaimKey,
  type IdempotencyEvent,
} from '../../core/idempotency/idempotency.js';

const start = Date.parse('2026-01-01T00:00:00.000Z');
const at = (ms: number) => new Date(start + ms).toISOString();
const fingerprint = 'f'.repeat(64);
const claim = (ms = 0, print = fingerprint): ClaimKey => ({ type: 'ClaimKey', accountId: 'acc_1', mode: 'live', fingerprint: print, requestId: 'req_1', at: at(ms) });
const claimed = (ms = 0): IdempotencyEvent => ({
  type: 'IdempotencyKeyClaimed',
  data: { account_id: 'acc_1', mode: 'live', fingerprint, request_id: 'req_1', claimed_at: at(ms) },
});
const response = { status: 201, headers: { 'content-type': 'application/json' }, body_base64: 'e30=' };
const recorded: IdempotencyEvent = { type: 'IdempotentResponseRecorded', data: { ...response, recorded_at: at(1000) } };
const given = deciderSpec(idempotencyDecider);

describe('idempotency decider', () => {
  it('given nothing, when ClaimKey, then claimed', () => {
    given([]).when(claim()).then([claimed()]);
  });

  it('given a claim in flight, when the same request claims, then in flight; another request, then reused', () => {
    given([claimed()]).when(claim(10)).thenThrows(IdempotencyInFlight);
    given([claimed()]).when(claim(10, '0'.repeat(64))).thenThrows(IdempotencyKeyReused);
  });

  it('given a claim older than its lease, when ClaimKey, then the retry takes it over', () => {
    given([claimed()]).when(claim(CLAIM_LEASE_MS + 1)).then([claimed(CLAIM_LEASE_MS + 1)]);
  });

  it('given a claim, when RecordResponse, then recorded; a completed key is claimed by nothing', () => {
    given([claimed()]).when({ type: 'RecordResponse', response, at: at(1000) }).then([recorded]);
    given([claimed(), recorded]).when(claim(2000)).then([]);
    given([claimed(), recorded]).when(claim(2000, '0'.repeat(64))).thenThrows(IdempotencyKeyReused);
  });

  it('given a response older than the retention, when ClaimKey, then claimed afresh', () => {
    given([claimed(), recorded]).when(claim(1000 + RETENTION_MS + 1)).then([claimed(1000 + RETENTION_MS + 1)]);
  });

  it('given a claim, when ReleaseKey, then released, and the key is free again', () => {
    const released: IdempotencyEvent = { type: 'IdempotencyKeyReleased', data: { reason: 'status 500', released_at: at(5) } };
    given([claimed()]).when({ type: 'ReleaseKey', reason: 'status 500', at: at(5) }).then([released]);
    given([claimed(), released]).when(claim(6)).then([claimed(6)]);
  });
});
