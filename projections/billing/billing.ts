import type { RecordedEvent } from '../../core/events/envelope.js';
import { isEventOf } from '../../core/events/event-of.js';
import { accountIdOfStream } from '../../core/accounts/account.js';
import type { AccountOpened, Tier } from '../../core/accounts/profile.js';
import type { CreditPurchaseDeclined, CreditsPurchased } from '../../core/accounts/credits.js';
import type { CreditPurchaseAbandoned, CreditPurchaseStarted } from '../../core/accounts/purchase-intents.js';
import { renewalFeeReference, upgradeFeeReference, type SubscriptionEvent } from '../../core/accounts/subscription.js';
import { PURCHASE_RECOVERY_AFTER_MS } from '../../core/billing/credit-purchases.js';
import { periodEnd } from '../../core/pricing/periods.js';
import type { Projection } from '../runner/projection.js';

export type BillingRecordType =
  | 'upgrade'
  | 'downgrade_scheduled'
  | 'downgrade_cancelled'
  | 'renewal'
  | 'lapsed'
  | 'payment_method_set'
  | 'fee_paid'
  | 'fee_declined'
  | 'purchase'
  | 'purchase_declined'
  | 'purchase_abandoned';

/** The lines that bill an amount (the audit recomputes their sum); `fee_paid` lines collect them. */
const BILLING_TYPES = new Set<BillingRecordType>(['upgrade', 'renewal', 'purchase']);

/**
 * One line of the billing history. Amounts are in the currency's minor unit, as the events recorded
 * them (the prices that applied then, never today's pricing file).
 */
export interface BillingRecord {
  /** `bil_<position>`: stable across rebuilds. */
  id: string;
  type: BillingRecordType;
  at: string;
  description: string;
  /**
   * Billed (upgrade, renewal, purchase), collected (fee_paid), or tried and not charged (fee_declined,
   * purchase_declined, purchase_abandoned: only the billed lines count in the billed total); 0 for a
   * change that costs nothing now.
   */
  amount: number;
  /**
   * Of the amount; a subscription change that costs nothing (a downgrade scheduled or cancelled, a
   * lapse) is in the subscription's currency. null for a payment method set (no money), and for a
   * change recorded before the account's first renewal or upgrade, which named none.
   */
  currency: string | null;
  /** Credits granted by it. */
  credits: number;
  tier: Tier | null;
  /** The purchase id, or the fee's reference. */
  reference: string | null;
  position: number;
}

export interface BillingAccount {
  tier: Tier;
  period: number;
  period_end: string;
  first_period_billed: boolean;
  payment_method: boolean;
  /** What the subscription is billed in: the currency of its last renewal or upgrade (null before either). */
  currency: string | null;
  /** Fees of the period not paid yet, by reference. */
  unpaid_fees: Record<string, 'due' | 'declined'>;
  /** Purchases without an outcome, by reference: when each started, and the price asked. */
  open_purchases: Record<string, OpenPurchase>;
  history: BillingRecord[];
}

export interface OpenPurchase {
  at: string;
  amount: number;
  currency: string;
}

export type BillingModel = Map<string, BillingAccount>;

export const BILLING_PROJECTION = 'billing';

type BillingEvent =
  | SubscriptionEvent
  | CreditsPurchased
  | CreditPurchaseDeclined
  | CreditPurchaseStarted
  | CreditPurchaseAbandoned
  | AccountOpened;

const billingEventTypes: readonly BillingEvent['type'][] = [
  'AccountOpened',
  'SubscriptionUpgraded',
  'SubscriptionDowngradeScheduled',
  'SubscriptionDowngradeCancelled',
  'SubscriptionRenewed',
  'SubscriptionLapsed',
  'PaymentMethodSet',
  'SubscriptionFeePaid',
  'SubscriptionFeeDeclined',
  'CreditPurchaseStarted',
  'CreditsPurchased',
  'CreditPurchaseDeclined',
  'CreditPurchaseAbandoned',
];

/** Every account's billing state (what the billing run needs to find its work) and billing history. */
export const billingProjection: Projection<BillingModel> = {
  name: BILLING_PROJECTION,
  version: 3,
  handles: billingEventTypes,
  initialState: () => new Map(),
  apply(state, event: RecordedEvent) {
    const accountId = accountIdOfStream(event.stream);
    // The runner hands the projection only the types it handles: anything else is not billing's to fold.
    if (accountId === null || !isEventOf<BillingEvent>(event, billingEventTypes)) return state;
    if (event.type === 'AccountOpened') {
      const { tier, opened_at } = event.data;
      state.set(accountId, {
        tier,
        period: 0,
        period_end: periodEnd(opened_at, 0),
        first_period_billed: false,
        payment_method: false,
        currency: null,
        unpaid_fees: {},
        open_purchases: {},
        history: [],
      });
      return state;
    }
    const account = state.get(accountId);
    if (!account) throw new Error(`${event.type} on account ${accountId}, which was never opened`);
    const line = {
      id: `bil_${event.position}`,
      at: event.recorded_at,
      position: event.position,
      reference: null,
      tier: null,
      amount: 0,
      currency: null,
      credits: 0,
    };
    const add = (record: Omit<BillingRecord, keyof typeof line> & Partial<BillingRecord>) =>
      account.history.push({ ...line, ...record });
    switch (event.type) {
      case 'SubscriptionUpgraded': {
        const { to_tier, from_tier, credits, amount, currency, at, period_start, charged } = event.data;
        const reference = upgradeFeeReference(period_start, to_tier);
        Object.assign(account, { tier: to_tier, currency });
        if (charged && amount > 0) account.unpaid_fees[reference] = 'due';
        add({
          at,
          type: 'upgrade',
          tier: to_tier,
          amount,
          currency,
          credits,
          reference,
          description: `Upgrade from ${from_tier} to ${to_tier}, prorated to the end of the period`,
        });
        break;
      }
      case 'SubscriptionDowngradeScheduled': {
        const { from_tier, to_tier, at, effective_at } = event.data;
        add({
          at,
          type: 'downgrade_scheduled',
          tier: to_tier,
          currency: account.currency,
          description: `Downgrade from ${from_tier} to ${to_tier}, effective ${effective_at}`,
        });
        break;
      }
      case 'SubscriptionDowngradeCancelled': {
        const { tier, cancelled_tier, at } = event.data;
        add({
          at,
          type: 'downgrade_cancelled',
          tier,
          currency: account.currency,
          description: `Scheduled downgrade to ${cancelled_tier} cancelled`,
        });
        break;
      }
      case 'SubscriptionRenewed': {
        const { tier, period, period_start, period_end, amount, currency, credits, charged } = event.data;
        const reference = renewalFeeReference(period_start);
        Object.assign(account, {
          tier,
          period,
          period_end,
          first_period_billed: true,
          currency,
          unpaid_fees: charged && amount > 0 ? { [reference]: 'due' } : {},
        });
        const what = period === 0 ? 'first period' : `${period_start.slice(0, 10)} to ${period_end.slice(0, 10)}`;
        add({
          at: period_start,
          type: 'renewal',
          tier,
          amount,
          currency,
          credits,
          reference,
          description: `${tier} subscription, ${what}`,
        });
        break;
      }
      case 'SubscriptionLapsed': {
        const { from_tier, to_tier, unpaid_amount, currency, at } = event.data;
        add({
          at,
          type: 'lapsed',
          tier: to_tier,
          currency,
          description:
            `${unpaid_amount} ${currency} (minor units) unpaid at the end of the period: ` +
            `${from_tier} lapsed to ${to_tier}`,
        });
        break;
      }
      case 'PaymentMethodSet': {
        account.payment_method = true;
        for (const reference of Object.keys(account.unpaid_fees)) account.unpaid_fees[reference] = 'due';
        add({
          at: event.data.at,
          type: 'payment_method_set',
          description: 'Payment method set; unpaid fees are charged to it',
        });
        break;
      }
      case 'SubscriptionFeePaid': {
        const { reference, amount, currency, payment_id } = event.data;
        delete account.unpaid_fees[reference];
        add({
          type: 'fee_paid',
          amount,
          currency,
          reference,
          description: `Subscription fee ${reference} paid (${payment_id})`,
        });
        break;
      }
      case 'SubscriptionFeeDeclined': {
        const { reference, amount, currency, reason, attempt } = event.data;
        if (reference in account.unpaid_fees) account.unpaid_fees[reference] = 'declined';
        add({
          type: 'fee_declined',
          amount,
          currency,
          reference,
          description: `Subscription fee ${reference} of ${amount} declined (attempt ${attempt}): ${reason}`,
        });
        break;
      }
      case 'CreditPurchaseStarted': {
        const { reference, at, amount, currency } = event.data;
        account.open_purchases[reference] = { at, amount, currency };
        break;
      }
      case 'CreditsPurchased': {
        const { reference, pack, credits, amount, currency } = event.data;
        delete account.open_purchases[reference];
        add({
          type: 'purchase',
          reference,
          amount,
          currency,
          credits,
          description: `Credit pack ${pack}: ${credits} credits`,
        });
        break;
      }
      case 'CreditPurchaseDeclined': {
        const { reference, pack, reason, amount, currency } = event.data;
        delete account.open_purchases[reference];
        add({
          type: 'purchase_declined',
          reference,
          amount,
          currency,
          description: `Credit pack ${pack} declined: ${reason}`,
        });
        break;
      }
      case 'CreditPurchaseAbandoned': {
        const { reference, reason } = event.data;
        // The price asked when the purchase started; an abandonment records none of its own.
        const asked = account.open_purchases[reference];
        delete account.open_purchases[reference];
        add({
          type: 'purchase_abandoned',
          reference,
          amount: asked?.amount ?? 0,
          currency: asked?.currency ?? null,
          description: `Credit purchase abandoned: ${reason}`,
        });
        break;
      }
    }
    return state;
  },
  toJSON: (state) => Object.fromEntries([...state.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
  fromJSON: (json) => new Map(Object.entries(json as Record<string, BillingAccount>)),
};

/**
 * The billing run's work list at `now`: accounts whose period has ended or whose first period is not
 * billed yet, with a fee to charge to a payment method on file, or with a purchase left open longer
 * than the recovery waits.
 */
export function accountsWithBillingWork(state: BillingModel, now: Date): string[] {
  const stale = now.getTime() - PURCHASE_RECOVERY_AFTER_MS;
  const hasWork = (account: BillingAccount) =>
    Date.parse(account.period_end) <= now.getTime() ||
    !account.first_period_billed ||
    (account.payment_method && Object.values(account.unpaid_fees).includes('due')) ||
    Object.values(account.open_purchases).some(({ at }) => Date.parse(at) <= stale);
  return [...state.entries()].filter(([, account]) => hasWork(account)).map(([accountId]) => accountId);
}

/** What each account was billed in total, per currency: what the audit recomputes from the events. */
export function billedTotals(state: BillingModel): Map<string, Record<string, number>> {
  const totals = new Map<string, Record<string, number>>();
  for (const [accountId, account] of state) {
    const sum: Record<string, number> = {};
    for (const line of account.history)
      if (BILLING_TYPES.has(line.type) && line.currency && line.amount > 0)
        sum[line.currency] = (sum[line.currency] ?? 0) + line.amount;
    totals.set(accountId, sum);
  }
  return totals;
}
