import { TIERS, type Tier } from '../pricing/tiers.js';
import { Problems, defineProblem, problem } from '../problems.js';
import type { DomainEvent } from '../commands/decider.js';
import type { AccountSlice } from './slice.js';

export { TIERS, type Tier } from '../pricing/tiers.js';

/**
 * How the subscription is paid: `card`, its fees charged to the payment method on file through the
 * payment port; `invoice`, billed outside finsynth by the operator (no fee charged, each period's
 * allowance granted on renewal).
 */
export type Billing = 'card' | 'invoice';
export const BILLINGS: readonly Billing[] = ['card', 'invoice'];

export interface ProfileState {
  accountId: string | null;
  tier: Tier | null;
  openedAt: string | null;
}

export type OpenAccount = { type: 'OpenAccount'; accountId: string; tier: Tier; at: string; billing?: Billing };
export type ProfileCommand = OpenAccount;

/** `billing` absent: `card` (accounts opened before it was recorded). */
export type AccountOpened = DomainEvent<
  'AccountOpened',
  { account_id: string; tier: Tier; opened_at: string; billing?: Billing }
>;
export type ProfileEvent = AccountOpened;

export const AccountAlreadyOpen = defineProblem({
  slug: 'account-exists',
  title: 'Conflict',
  status: 409,
  description: 'An account with this id is already open.',
});

export const profile: AccountSlice<ProfileState, ProfileCommand, ProfileEvent, { profile: ProfileState }> = {
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
          billing: { enum: [...BILLINGS] },
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
    if (account.profile.accountId !== null) {
      throw problem(AccountAlreadyOpen, `account ${command.accountId} is already open`);
    }
    const { accountId, tier, at, billing } = command;
    return [
      { type: 'AccountOpened', data: { account_id: accountId, tier, opened_at: at, ...(billing && { billing }) } },
    ];
  },
};

/** Every command but OpenAccount needs an open account; its id, for the slices that record it. */
export function requireOpen(account: { profile: ProfileState }): string {
  if (account.profile.accountId === null) throw problem(Problems.notFound, 'the account does not exist');
  return account.profile.accountId;
}
