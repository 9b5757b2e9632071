import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { purchaseReference } from '../../../core/billing/credit-purchases.js';
import { deciderSpec } from '../jobs/decider-spec.js';
import { eventDefinitions } from '../../../core/services/event-definitions.js';
import type { RecordedEvent } from '../../../core/events/envelope.js';
import { EventRegistry } from '../../../core/events/registry.js';
import {
  CLAIM_LEASE_MS,
  CLAIM_RENEW_MS,
  IdempotencyInFlight,
  IdempotencyKeyReused,
  RETENTION_MS,
  UNRECORDED_ORIGINAL,
  idempotencyDecider,
  originalRequestOf,
  type ClaimKey,
  type RenewClaim,
  type IdempotencyEvent,
} from '../../../core/idempotency/idempotency.js';

const start = Date.parse('2026-01-01T00:00:00.000Z');
const at = (ms: number) => new Date(start + ms).toISOString();
const fingerprint = 'f'.repeat(64);
const claim = (ms = 0, print = fingerprint, requestId = 'req_2'): ClaimKey => ({
  type: 'ClaimKey',
  accountId: 'acc_1',
  mode: 'live',
  fingerprint: print,
  requestId,
  at: at(ms),
});
const claimed = (
  ms = 0,
  requestId = 'req_1',
  originalRequestId = requestId,
  print = fingerprint,
): IdempotencyEvent => ({
  type: 'IdempotencyKeyClaimed',
  data: {
    account_id: 'acc_1',
    mode: 'live',
    fingerprint: print,
    request_id: requestId,
    original_request_id: originalRequestId,
    claimed_at: at(ms),
  },
});
const released = (ms: number): IdempotencyEvent => ({
  type: 'IdempotencyKeyReleased',
  data: { reason: 'status 502', released_at: at(ms) },
});
const otherBody = '0'.repeat(64);
const renew = (ms: number, requestId = 'req_1'): RenewClaim => ({ type: 'RenewClaim', requestId, at: at(ms) });
const renewed = (ms: number, requestId = 'req_1'): IdempotencyEvent => ({
  type: 'IdempotencyClaimRenewed',
  data: { request_id: requestId, renewed_at: at(ms) },
});
const response = { status: 201, headers: { 'content-type': 'application/json' }, body_base64: 'e30=' };
const recorded: IdempotencyEvent = { type: 'IdempotentResponseRecorded', data: { ...response, recorded_at: at(1000) } };
const given = deciderSpec(idempotencyDecider);

describe('idempotency decider', () => {
  it('given nothing, when ClaimKey, then claimed', () => {
    given([])
      .when(claim(0, fingerprint, 'req_1'))
      .then([claimed()]);
  });

  it('given a claim in flight, when the same request claims, then in flight; another request, then reused', () => {
    given([claimed()]).when(claim(10)).thenThrows(IdempotencyInFlight);
    given([claimed()]).when(claim(10, otherBody)).thenThrows(IdempotencyKeyReused);
  });

  it('given a claim older than its lease, when the same request claims, then the retry takes it over, as a retry of the original', () => {
    given([claimed()])
      .when(claim(CLAIM_LEASE_MS + 1))
      .then([claimed(CLAIM_LEASE_MS + 1, 'req_2', 'req_1')]);
    given([claimed(), claimed(CLAIM_LEASE_MS + 1, 'req_2', 'req_1')])
      .when(claim(2 * CLAIM_LEASE_MS + 2, fingerprint, 'req_3'))
      .then([claimed(2 * CLAIM_LEASE_MS + 2, 'req_3', 'req_1')]);
  });

  it('given a claim older than its lease, when another request claims, then reused: a takeover never does other work', () => {
    given([claimed()])
      .when(claim(CLAIM_LEASE_MS + 1, otherBody))
      .thenThrows(IdempotencyKeyReused);
  });

  it('given a claim, when its request renews it, then renewed; the lease then runs from the renewal', () => {
    given([claimed()])
      .when(renew(CLAIM_RENEW_MS))
      .then([renewed(CLAIM_RENEW_MS)]);
    given([claimed(), renewed(CLAIM_RENEW_MS)])
      .when(claim(CLAIM_LEASE_MS + 1))
      .thenThrows(IdempotencyInFlight);
    given([claimed(), renewed(CLAIM_RENEW_MS)])
      .when(claim(CLAIM_RENEW_MS + CLAIM_LEASE_MS + 1))
      .then([claimed(CLAIM_RENEW_MS + CLAIM_LEASE_MS + 1, 'req_2', 'req_1')]);
  });

  it('given a claim taken over by a retry, when the first request renews, records or releases, then nothing', () => {
    const takenOver = [claimed(), claimed(CLAIM_LEASE_MS + 1, 'req_2', 'req_1')];
    given(takenOver)
      .when(renew(CLAIM_LEASE_MS + 2))
      .then([]);
    given(takenOver)
      .when({ type: 'RecordResponse', requestId: 'req_1', response, at: at(CLAIM_LEASE_MS + 2) })
      .then([]);
    given(takenOver)
      .when({ type: 'ReleaseKey', requestId: 'req_1', reason: 'status 500', at: at(CLAIM_LEASE_MS + 2) })
      .then([]);
    given(takenOver)
      .when(renew(CLAIM_LEASE_MS + 2, 'req_2'))
      .then([renewed(CLAIM_LEASE_MS + 2, 'req_2')]);
  });

  it('given a claim, when RecordResponse, then recorded; a completed key is claimed by nothing', () => {
    given([claimed()])
      .when({ type: 'RecordResponse', requestId: 'req_1', response, at: at(1000) })
      .then([recorded]);
    given([claimed(), recorded]).when(claim(2000)).then([]);
    given([claimed(), recorded]).when(claim(2000, otherBody)).thenThrows(IdempotencyKeyReused);
  });

  it('given a use older than the retention, when ClaimKey, then claimed afresh, by any request, as a new original', () => {
    const later = 1000 + RETENTION_MS + 1;
    given([claimed(), recorded])
      .when(claim(later))
      .then([claimed(later, 'req_2')]);
    given([claimed(), recorded])
      .when(claim(later, otherBody))
      .then([claimed(later, 'req_2', 'req_2', otherBody)]);
    given([claimed(), released(1000)])
      .when(claim(later, otherBody))
      .then([claimed(later, 'req_2', 'req_2', otherBody)]);
    // A claim its dead instance left, never settled: its use ends a retention after its last renewal.
    given([claimed(), renewed(1000)])
      .when(claim(later, otherBody))
      .then([claimed(later, 'req_2', 'req_2', otherBody)]);
  });

  it('given a claim, when ReleaseKey, then released; a retry of the same request claims it as a retry of the original, another request is refused', () => {
    given([claimed()])
      .when({ type: 'ReleaseKey', requestId: 'req_1', reason: 'status 502', at: at(5) })
      .then([released(5)]);
    given([claimed(), released(5)])
      .when(claim(6, fingerprint, 'req_2'))
      .then([claimed(6, 'req_2', 'req_1')]);
    given([claimed(), released(5)])
      .when(claim(RETENTION_MS, otherBody))
      .thenThrows(IdempotencyKeyReused);
    given([claimed(), released(5), claimed(6, 'req_2', 'req_1'), released(7)])
      .when(claim(8, otherBody, 'req_3'))
      .thenThrows(IdempotencyKeyReused);
  });

  it('reads a claim of version 1 (before retries carried their original) as a use whose original was not recorded', () => {
    const v1 = { account_id: 'acc_1', mode: 'live', fingerprint, request_id: 'req_1', claimed_at: at(0) };
    const event: RecordedEvent = {
      id: 'e',
      stream: 's',
      revision: 0,
      position: 1,
      type: 'IdempotencyKeyClaimed',
      version: 1,
      data: v1,
      metadata: {},
      recorded_at: at(0),
      hash: '',
    };
    expect(new EventRegistry(eventDefinitions).upcast(event).data).to.deep.equal({
      ...v1,
      original_request_id: UNRECORDED_ORIGINAL,
    });
  });

  it('references a purchase under a use of the key begun in version 1 by the key alone, as it was then', () => {
    const legacy = `pur_${createHash('sha256')
      .update(JSON.stringify(['acc_1', 'live', 'buy-1']))
      .digest('hex')
      .slice(0, 32)}`;
    expect(
      purchaseReference({
        accountId: 'acc_1',
        mode: 'live',
        idempotency: { key: 'buy-1', originalRequestId: UNRECORDED_ORIGINAL },
      }),
    ).to.equal(legacy);
    expect(
      purchaseReference({
        accountId: 'acc_1',
        mode: 'live',
        idempotency: { key: 'buy-1', originalRequestId: 'req_1' },
      }),
    ).to.not.equal(legacy);
  });

  it('names the original request of the attempt holding the claim, and none for another attempt', () => {
    const takenOver = [claimed(), claimed(CLAIM_LEASE_MS + 1, 'req_2', 'req_1')].reduce(
      idempotencyDecider.evolve,
      idempotencyDecider.initialState(),
    );
    expect(originalRequestOf(takenOver, 'req_2')).to.equal('req_1');
    expect(originalRequestOf(takenOver, 'req_1')).to.equal(null);
  });
});
