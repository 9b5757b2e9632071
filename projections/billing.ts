import type { RecordedEvent } from '../core/events/envelope.js';
import { accountIdOfStream } from '../core/domain/account/index.js';
import type { AccountOpened, Tier } from '../core/domain/account/profile.js';
import type { CreditPurchaseDeclined, CreditsPurchased } from '../core/domain/account/credits.js';
import type { SubscriptionEvent } from '../core/domain/account/subscription.js';
import { periodEnd } from '../core/billing/periods.js';
import type { Projection } from './projection.js';

export type BillingRecordType = 'upgrade' | 'downgrade_scheduled' | 'downgrade_cancelled' | 'renewal' | 'purchase' | 'purchase_declined';

/** One line of the billing history. Amounts are in the currency's minor unit; a declined purchase charged nothing. */
export interface BillingRecord {
  /** `bil_<position>`: stable across rebuilds. */
  id: string;
  type: BillingRecordType;
  at: string;
  description: string;
  /** Charged: 0 for a decline or a scheduled change. */
  amount: number;
  currency: string | null;
  /** Credits granted by it. */
  credits: number;
  tier: Tier | null;
  reference: string | null;
  position: number;
}

export interface BillingAccount {
  tier: Tier;
  period_end: string;
  history: BillingRecord[];
}

export type BillingModel = Map<string, BillingAccount>;

export const BILLING_PROJECTION = 'billing';

type BillingEvent = SubscriptionEvent | CreditsPurchased | CreditPurchaseDeclined | AccountOpened;

/** Every account's tier, current period end (for the renewal run) and billing history. */
export const billingProjection: Projection<BillingModel> = {
  name: BILLING_PROJECTION,
  version: 1,
  handles: ['AccountOpened', 'SubscriptionUpgraded', 'SubscriptionDowngradeScheduled', 'SubscriptionDowngradeCancelled', 'SubscriptionRenewed', 'CreditsPurchased', 'CreditPurchaseDeclined'],
  initialState: () => new Map(),
  apply(state, recorded: RecordedEvent) {
    const accountId = accountIdOfStream(recorded.stream);
    if (accountId === null) return state;
    const event = recorded as unknown as BillingEvent & { position: number; recorded_at: string };
    if (event.type === 'AccountOpened') {
      state.set(accountId, { tier: event.data.tier, period_end: periodEnd(event.data.opened_at, 0), history: [] });
      return state;
    }
    const account = state.get(accountId);
    if (!account) throw new Error(`${event.type} on account ${accountId}, which was never opened`);
    const line = { id: `bil_${event.position}`, at: event.recorded_at, position: event.position, reference: null, tier: null };
    switch (event.type) {
      case 'SubscriptionUpgraded': {
        const { to_tier, from_tier, credits, amount, currency, at } = event.data;
        account.tier = to_tier;
        account.history.push({ ...line, at, type: 'upgrade', tier: to_tier, amount, currency, credits, description: `Upgrade from ${from_tier} to ${to_tier}, prorated to the end of the period` });
        break;
      }
      case 'SubscriptionDowngradeScheduled': {
        const { from_tier, to_tier, at, effective_at } = event.data;
        account.history.push({ ...line, at, type: 'downgrade_scheduled', tier: to_tier, amount: 0, currency: null, credits: 0, description: `Downgrade from ${from_tier} to ${to_tier}, effective ${effective_at}` });
        break;
      }
      case 'SubscriptionDowngradeCancelled': {
        const { tier, cancelled_tier, at } = event.data;
        account.history.push({ ...line, at, type: 'downgrade_cancelled', tier, amount: 0, currency: null, credits: 0, description: `Scheduled downgrade to ${cancelled_tier} cancelled` });
        break;
      }
      case 'SubscriptionRenewed': {
        const { tier, period_start, period_end, amount, currency, credits } = event.data;
        account.tier = tier;
        account.period_end = period_end;
        account.history.push({ ...line, at: period_start, type: 'renewal', tier, amount, currency, credits, description: `${tier} subscription, ${period_start.slice(0, 10)} to ${period_end.slice(0, 10)}` });
        break;
      }
      case 'CreditsPurchased': {
        const { reference, pack, credits, amount, currency } = event.data;
        account.history.push({ ...line, type: 'purchase', reference, amount, currency, credits, description: `Credit pack ${pack}: ${credits} credits` });
        break;
      }
      case 'CreditPurchaseDeclined': {
        const { reference, pack, reason, currency } = event.data;
        account.history.push({ ...line, type: 'purchase_declined', reference, amount: 0, currency, credits: 0, description: `Credit pack ${pack} declined: ${reason}` });
        break;
      }
    }
    return state;
  },
  toJSON: (state) => Object.fromEntries([...state.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
  fromJSON: (json) => new Map(Object.entries(json as Record<string, BillingAccount>)),
};

/** Accounts whose period has ended by `now`: the monthly renewal run's work list. */
export function accountsDueForRenewal(state: BillingModel, now: Date): string[] {
  return [...state.entries()].filter(([, account]) => Date.parse(account.period_end) <= now.getTime()).map(([accountId]) => accountId);
}

/** What each account was billed in total, per currency: what the audit recomputes from the events. */
export function billedTotals(state: BillingModel): Map<string, Record<string, number>> {
  const totals = new Map<string, Record<string, number>>();
  for (const [accountId, account] of state) {
    const sum: Record<string, number> = {};
    for (const line of account.history) if (line.currency && line.amount > 0) sum[line.currency] = (sum[line.currency] ?? 0) + line.amount;
    totals.set(accountId, sum);
  }
  return totals;
}
