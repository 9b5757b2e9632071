import { deciderSpec } from '../jobs/decider-spec.js';
import { accountDecider, type AccountEvent } from '../../../core/accounts/account.js';
import { KeyIdTaken, KeyNotFound, ScopeEscalation, type IssueKey } from '../../../core/accounts/keys.js';
import { Problems } from '../../../core/problems.js';

const at = '2026-01-01T00:00:00.000Z';
const sha = 'a'.repeat(64);
const opened: AccountEvent = { type: 'AccountOpened', data: { account_id: 'acc_1', tier: 'free', opened_at: at } };
const issue = (overrides: Partial<IssueKey> = {}): IssueKey => ({
  type: 'IssueKey',
  keyId: 'key_1',
  mode: 'live',
  scopes: ['keys:read'],
  name: 'ci',
  prefix: 'svc_live_abcd',
  secretSha256: sha,
  issuerScopes: null,
  at,
  ...overrides,
});
const issued: AccountEvent = {
  type: 'KeyIssued',
  data: {
    account_id: 'acc_1',
    key_id: 'key_1',
    mode: 'live',
    scopes: ['keys:read'],
    name: 'ci',
    prefix: 'svc_live_abcd',
    secret_sha256: sha,
    issued_at: at,
  },
};
const given = deciderSpec(accountDecider);

describe('keys slice of the account decider', () => {
  it('given an open account, when IssueKey, then KeyIssued with the hash, never a secret', () => {
    given([opened]).when(issue()).then([issued]);
  });

  it('given no account, when IssueKey, then not found', () => {
    given([]).when(issue()).thenThrows(Problems.notFound);
  });

  it('given a key, when IssueKey with its id, then key-exists', () => {
    given([opened, issued]).when(issue()).thenThrows(KeyIdTaken);
  });

  it('when a key issues scopes it lacks, then scope-escalation', () => {
    given([opened])
      .when(issue({ scopes: ['keys:read', 'billing:write'], issuerScopes: ['keys:read', 'keys:write'] }))
      .thenThrows(ScopeEscalation);
  });

  it('when a key issues a subset of its scopes, then KeyIssued', () => {
    given([opened])
      .when(issue({ issuerScopes: ['keys:read', 'keys:write'] }))
      .then([issued]);
  });

  it('given a key, when RevokeKey, then KeyRevoked; a second time, nothing', () => {
    const revoked: AccountEvent = {
      type: 'KeyRevoked',
      data: { account_id: 'acc_1', key_id: 'key_1', revoked_at: at },
    };
    given([opened, issued]).when({ type: 'RevokeKey', keyId: 'key_1', mode: 'live', at }).then([revoked]);
    given([opened, issued, revoked]).when({ type: 'RevokeKey', keyId: 'key_1', mode: 'live', at }).then([]);
  });

  it('when RevokeKey names an unknown key or one of the other mode, then key-not-found', () => {
    given([opened, issued]).when({ type: 'RevokeKey', keyId: 'key_2', mode: 'live', at }).thenThrows(KeyNotFound);
    given([opened, issued]).when({ type: 'RevokeKey', keyId: 'key_1', mode: 'test', at }).thenThrows(KeyNotFound);
  });
  it('given no key of that id, when IssueKey names one every object inherits, then KeyIssued: it is no existing key', () => {
    given([opened])
      .when(issue({ keyId: 'constructor' }))
      .then([{ ...issued, data: { ...issued.data, key_id: 'constructor' } }]);
  });
});
