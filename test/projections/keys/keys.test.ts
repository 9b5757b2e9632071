import { expect } from 'chai';
import type { KeyIssued } from '../../../core/accounts/keys.js';
import type { RecordedEvent } from '../../../core/events/envelope.js';
import { accountKeys, keysProjection } from '../../../projections/keys/keys.js';

const ISSUED_AT = '2026-11-26T12:00:00.000Z';

function keyIssued(position: number, keyId: string): RecordedEvent<'KeyIssued', KeyIssued['data']> {
  return {
    id: `event-${position}`,
    stream: 'account-acc_1',
    revision: position,
    position,
    type: 'KeyIssued',
    version: 1,
    data: {
      account_id: 'acc_1',
      key_id: keyId,
      mode: 'live',
      scopes: ['catalog:read'],
      name: keyId,
      prefix: 'svc_live_abc',
      secret_sha256: `sha-${keyId}`,
      issued_at: ISSUED_AT,
    },
    metadata: {},
    recorded_at: ISSUED_AT,
    hash: '',
  };
}

describe('the keys read model', () => {
  it('lists keys issued in the same millisecond newest first, whatever their ids', () => {
    // Ids drawn at random may sort either way: the later key gets the smaller id here.
    const events = [keyIssued(1, 'key_z'), keyIssued(2, 'key_m'), keyIssued(3, 'key_a')];
    const state = events.reduce((model, event) => keysProjection.apply(model, event), keysProjection.initialState());
    expect(accountKeys(state, 'acc_1', 'live').map((key) => key.key_id)).to.deep.equal(['key_a', 'key_m', 'key_z']);
  });

  it('keeps that order through a snapshot', () => {
    const events = [keyIssued(1, 'key_z'), keyIssued(2, 'key_a')];
    const state = events.reduce((model, event) => keysProjection.apply(model, event), keysProjection.initialState());
    const restored = keysProjection.fromJSON(JSON.parse(JSON.stringify(keysProjection.toJSON(state))));
    expect(accountKeys(restored, 'acc_1', 'live').map((key) => key.key_id)).to.deep.equal(['key_a', 'key_z']);
  });
});
