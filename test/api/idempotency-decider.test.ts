import { deciderSpec } from '../jobs/decider-spec.js';
import {
  CLAIM_LEASE_MS,
  CLAIM_RENEW_MS,
  IdempotencyInFlight,
  IdempotencyKeyReused,
  RETENTION_MS,
  idempotencyDecider,
  type ClaimKey,
  type RenewClaim,
  type IdempotencyEvent,
} from '../../core/idempotency/idempotency.js';

const start = Date.parse('2026-01-01T00:00:00.000Z');
const at = (ms: number) => new Date(start + ms).toISOString();
const fingerprint = 'f'.repeat(64);
const claim = (ms = 0, print = fingerprint, requestId = 'req_2'): ClaimKey => ({ type: 'ClaimKey', accountId: 'acc_1', mode: 'live', fingerprint: print, requestId, at: at(ms) });
const claimed = (ms = 0, requestId = 'req_1'): IdempotencyEvent => ({
  type: 'IdempotencyKeyClaimed',
  data: { account_id: 'acc_1', mode: 'live', fingerprint, request_id: requestId, claimed_at: at(ms) },
});
const renew = (ms: number, requestId = 'req_1'): RenewClaim => ({ type: 'RenewClaim', requestId, at: at(ms) });
const renewed = (ms: number, requestId = 'req_1'): IdempotencyEvent => ({ type: 'IdempotencyClaimRenewed', data: { request_id: requestId, renewed_at: at(ms) } });
const response = { status: 201, headers: { 'content-type': 'application/json' }, body_base64: 'e30=' };
const recorded: IdempotencyEvent = { type: 'IdempotentResponseRecorded', data: { ...response, recorded_at: at(1000) } };
const given = deciderSpec(idempotencyDecider);

describe('idempotency decider', () => {
  it('given nothing, when ClaimKey, then claimed', () => {
    given([]).when(claim(0, fingerprint, 'req_1')).then([claimed()]);
  });

  it('given a claim in flight, when the same request claims, then in flight; another request, then reused', () => {
    given([claimed()]).when(claim(10)).thenThrows(IdempotencyInFlight);
    given([claimed()]).when(claim(10, '0'.repeat(64))).thenThrows(IdempotencyKeyReused);
  });

  it('given a claim older than its lease, when ClaimKey, then the retry takes it over', () => {
    given([claimed()]).when(claim(CLAIM_LEASE_MS + 1)).then([claimed(CLAIM_LEASE_MS + 1, 'req_2')]);
  });

  it('given a claim, when its request renews it, then renewed; the lease then runs from the renewal', () => {
    given([claimed()]).when(renew(CLAIM_RENEW_MS)).then([renewed(CLAIM_RENEW_MS)]);
    given([claimed(), renewed(CLAIM_RENEW_MS)]).when(claim(CLAIM_LEASE_MS + 1)).thenThrows(IdempotencyInFlight);
    given([claimed(), renewed(CLAIM_RENEW_MS)]).when(claim(CLAIM_RENEW_MS + CLAIM_LEASE_MS + 1)).then([claimed(CLAIM_RENEW_MS + CLAIM_LEASE_MS + 1, 'req_2')]);
  });

  it('given a claim taken over by a retry, when the first request renews, records or releases, then nothing', () => {
    const takenOver = [claimed(), claimed(CLAIM_LEASE_MS + 1, 'req_2')];
    given(takenOver).when(renew(CLAIM_LEASE_MS + 2)).then([]);
    given(takenOver).when({ type: 'RecordResponse', requestId: 'req_1', response, at: at(CLAIM_LEASE_MS + 2) }).then([]);
    given(takenOver).when({ type: 'ReleaseKey', requestId: 'req_1', reason: 'status 500', at: at(CLAIM_LEASE_MS + 2) }).then([]);
    given(takenOver).when(renew(CLAIM_LEASE_MS + 2, 'req_2')).then([renewed(CLAIM_LEASE_MS + 2, 'req_2')]);
  });

  it('given a claim, when RecordResponse, then recorded; a completed key is claimed by nothing', () => {
    given([claimed()]).when({ type: 'RecordResponse', requestId: 'req_1', response, at: at(1000) }).then([recorded]);
    given([claimed(), recorded]).when(claim(2000)).then([]);
    given([claimed(), recorded]).when(claim(2000, '0'.repeat(64))).thenThrows(IdempotencyKeyReused);
  });

  it('given a response older than the retention, when ClaimKey, then claimed afresh', () => {
    given([claimed(), recorded]).when(claim(1000 + RETENTION_MS + 1)).then([claimed(1000 + RETENTION_MS + 1, 'req_2')]);
  });

  it('given a claim, when ReleaseKey, then released, and the key is free again', () => {
    const released: IdempotencyEvent = { type: 'IdempotencyKeyReleased', data: { reason: 'status 500', released_at: at(5) } };
    given([claimed()]).when({ type: 'ReleaseKey', requestId: 'req_1', reason: 'status 500', at: at(5) }).then([released]);
    given([claimed(), released]).when(claim(6, fingerprint, 'req_2')).then([claimed(6, 'req_2')]);
  });
});
