import { Problems, defineProblem, problem } from '../../problems.js';
import type { DomainEvent } from '../decider.js';
import type { AccountSlice } from './slice.js';

export type Tier = 'free' | 'developer' | 'team' | 'scale';
export const TIERS: readonly Tier[] = ['free', 'developer', 'team', 'scale'];

export interface ProfileState {
  accountId: string | null;
  tier: Tier | null;
  openedAt: string | null;
}

export type OpenAccount = { type: 'OpenAccount'; accountId: string; tier: Tier; at: string };
export type ProfileCommand = OpenAccount;

export type AccountOpened = DomainEvent<'AccountOpened', { account_id: string; tier: Tier; opened_at: string }>;
export type ProfileEvent = AccountOpened;

export const AccountAlreadyOpen = defineProblem({
  slug: 'account-exists',
  title: 'Conflict',
  status: 409,
  description: 'An account with this id is already open.',
});

export const profile: AccountSlice<ProfileState, ProfileCommand, ProfileEvent> = {
  commands: ['OpenAccount'],
  events: [
    {
      type: 'AccountOpened',
      version: 1,
      schema: {
        type: 'object',
        required: ['account_id', 'tier', 'opened_at'],
        properties: {
          account_id: { type: 'string', minLength: 1 },
          tier: { enum: [...TIERS] },
          opened_at: { type: 'string', format: 'date-time' },
        },
        additionalProperties: false,
      },
    },
  ],
  initialState: () => ({ accountId: null, tier: null, openedAt: null }),
  evolve(state, event) {
    if (event.type !== 'AccountOpened') return state;
    const data = (event as AccountOpened).data;
    return { accountId: data.account_id, tier: data.tier, openedAt: data.opened_at };
  },
  decide(command, account) {
    if ((account as { profile: ProfileState }).profile.accountId !== null) {
      throw problem(AccountAlreadyOpen, `account ${command.accountId} is already open`);
    }
    return [{ type: 'AccountOpened', data: { account_id: command.accountId, tier: command.tier, opened_at: command.at } }];
  },
};

/** Every command but OpenAccount needs an open account. */
export function requireOpen(account: { profile: ProfileState }): void {
  if (account.profile.accountId === null) throw problem(Problems.notFound, 'the account does not exist');
}
