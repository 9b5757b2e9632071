import { defineProblem, problem } from '../problems.js';
import { SCOPES, type Scope } from '../auth/scopes.js';
import type { Mode } from '../events/envelope.js';
import type { DomainEvent } from '../commands/decider.js';
import type { AccountSlice } from './slice.js';
import { requireOpen, type ProfileState } from './profile.js';
import { ownMember } from '../own-member.js';

export interface KeyState {
  mode: Mode;
  scopes: Scope[];
  revoked: boolean;
}

export interface KeysState {
  keys: Record<string, KeyState>;
}

/** The secret's hash and prefix are drawn by the caller (randomness is I/O): the decider stays pure. */
export type IssueKey = {
  type: 'IssueKey';
  keyId: string;
  mode: Mode;
  scopes: Scope[];
  name: string | null;
  prefix: string;
  secretSha256: string;
  /** Scopes of the key asking; null when the operator issues (CLI, first start). */
  issuerScopes: readonly Scope[] | null;
  at: string;
};
export type RevokeKey = { type: 'RevokeKey'; keyId: string; mode: Mode; at: string };
export type KeysCommand = IssueKey | RevokeKey;

export type KeyIssued = DomainEvent<
  'KeyIssued',
  {
    account_id: string;
    key_id: string;
    mode: Mode;
    scopes: Scope[];
    name: string | null;
    prefix: string;
    secret_sha256: string;
    issued_at: string;
  }
>;
export type KeyRevoked = DomainEvent<'KeyRevoked', { account_id: string; key_id: string; revoked_at: string }>;
export type KeysEvent = KeyIssued | KeyRevoked;

export const KeyNotFound = defineProblem({
  slug: 'key-not-found',
  title: 'Not Found',
  status: 404,
  description: 'No key with this id belongs to the account in the mode of the key asking.',
});
export const ScopeEscalation = defineProblem({
  slug: 'scope-escalation',
  title: 'Forbidden',
  status: 403,
  description: 'A key can only issue keys with scopes it holds itself; `scopes` lists those it lacks.',
});
export const KeyIdTaken = defineProblem({
  slug: 'key-exists',
  title: 'Conflict',
  status: 409,
  description: 'A key with this id already exists on the account.',
});

export const keys: AccountSlice<KeysState, KeysCommand, KeysEvent, { profile: ProfileState; keys: KeysState }> = {
  commands: ['IssueKey', 'RevokeKey'],
  events: [
    {
      type: 'KeyIssued',
      version: 1,
      schema: {
        type: 'object',
        required: ['account_id', 'key_id', 'mode', 'scopes', 'name', 'prefix', 'secret_sha256', 'issued_at'],
        additionalProperties: false,
        properties: {
          account_id: { type: 'string', minLength: 1 },
          key_id: { type: 'string', minLength: 1 },
          mode: { enum: ['live', 'test'] },
          scopes: { type: 'array', items: { enum: [...SCOPES] }, uniqueItems: true, minItems: 1 },
          name: { type: ['string', 'null'] },
          prefix: { type: 'string', minLength: 1 },
          secret_sha256: { type: 'string', pattern: '^[0-9a-f]{64}$' },
          issued_at: { type: 'string', format: 'date-time' },
        },
      },
    },
    {
      type: 'KeyRevoked',
      version: 1,
      schema: {
        type: 'object',
        required: ['account_id', 'key_id', 'revoked_at'],
        additionalProperties: false,
        properties: {
          account_id: { type: 'string', minLength: 1 },
          key_id: { type: 'string', minLength: 1 },
          revoked_at: { type: 'string', format: 'date-time' },
        },
      },
    },
  ],
  initialState: () => ({ keys: {} }),
  evolve(state, event) {
    if (event.type === 'KeyIssued') {
      const data = (event as KeyIssued).data;
      return { keys: { ...state.keys, [data.key_id]: { mode: data.mode, scopes: data.scopes, revoked: false } } };
    }
    if (event.type === 'KeyRevoked') {
      const data = (event as KeyRevoked).data;
      return { keys: { ...state.keys, [data.key_id]: { ...state.keys[data.key_id]!, revoked: true } } };
    }
    return state;
  },
  decide(command, account) {
    const accountId = requireOpen(account);
    const existing = ownMember(account.keys.keys, command.keyId);
    if (command.type === 'IssueKey') {
      if (existing) throw problem(KeyIdTaken, `key ${command.keyId} already exists`);
      const lacking = command.issuerScopes
        ? command.scopes.filter((scope) => !command.issuerScopes!.includes(scope))
        : [];
      if (lacking.length > 0) {
        throw problem(ScopeEscalation, `this key cannot grant scopes it does not hold: ${lacking.join(', ')}`, {
          scopes: lacking,
        });
      }
      return [
        {
          type: 'KeyIssued',
          data: {
            account_id: accountId,
            key_id: command.keyId,
            mode: command.mode,
            scopes: [...new Set(command.scopes)],
            name: command.name,
            prefix: command.prefix,
            secret_sha256: command.secretSha256,
            issued_at: command.at,
          },
        },
      ];
    }
    // Test and live keys manage only their own mode: a key of the other mode is as good as absent.
    if (!existing || existing.mode !== command.mode) throw problem(KeyNotFound, `no key ${command.keyId}`);
    // Revoking is idempotent: a second revocation records nothing.
    if (existing.revoked) return [];
    return [{ type: 'KeyRevoked', data: { account_id: accountId, key_id: command.keyId, revoked_at: command.at } }];
  },
};
