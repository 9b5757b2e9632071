import type { Pricing } from '../pricing/pricing.js';
import { toMinorUnits } from '../pricing/money.js';
import { periodEnd, periodStart, remainingFraction } from '../pricing/periods.js';
import { PaymentMethodRequired } from '../payments/payment-provider.js';
import { Problems, problem } from '../problems.js';
import type { DomainEvent } from '../commands/decider.js';
import type { CreditsGranted, CreditsState } from './credits.js';
import { TIERS, type AccountOpened, type Billing, type Tier } from './profile.js';
import type { AccountSlice } from './slice.js';
import { eventText, fitted } from './event-text.js';

/**
 * The account's subscription: a tier and a monthly period anchored on the day the account opened. An
 * upgrade takes effect at once, its allowance and price prorated for what remains of the period; a
 * downgrade waits for the renewal. Commands carry the time and the prices, so decide stays pure and the
 * events record the amounts that applied, whatever the pricing file says later.
 *
 * Each fee (a paid period, an upgrade's difference) is due until the billing service charges it, and
 * the credits it pays for are granted when it is paid; a period that ends with a fee unpaid renews on
 * the free tier. Invoiced accounts record the same amounts with `charged: false`: their credits come
 * with the event, and they never lapse.
 */

export interface Fee {
  /** `fee:<period start>` or `upgrade:<period start>:<tier>`. */
  reference: string;
  amount: number;
  currency: string;
  /** Granted once paid, under `grant`. */
  credits: number;
  grant: string;
  reason: string;
  /** Declined attempts so far; an attempt's key at the provider ends in its number. */
  attempts: number;
  status: 'due' | 'paid' | 'declined';
  /** The provider's id of the payment, once paid. */
  paymentId: string | null;
}

export interface SubscriptionState {
  tier: Tier | null;
  anchor: string | null;
  period: number;
  periodStart: string | null;
  periodEnd: string | null;
  pendingTier: Tier | null;
  billing: Billing;
  /** The provider's token of the payment method fees are charged to. */
  paymentMethod: string | null;
  /** The fees billed in the current period. */
  fees: readonly Fee[];
  /** Whether the first period has been billed (accounts are opened by the operator, without a fee). */
  firstPeriodBilled: boolean;
}

export type ChangeTier = { type: 'ChangeTier'; tier: Tier; at: string; pricing: Pricing };
export type RenewSubscription = { type: 'RenewSubscription'; at: string; pricing: Pricing };
export type SetPaymentMethod = { type: 'SetPaymentMethod'; paymentMethod: string; at: string };
export type RecordFeePaid = {
  type: 'RecordFeePaid';
  reference: string;
  amount: number;
  currency: string;
  paymentId: string;
};
export type RecordFeeDeclined = {
  type: 'RecordFeeDeclined';
  reference: string;
  attempt: number;
  declineCode: string;
  reason: string;
};
export type SubscriptionCommand = ChangeTier | RenewSubscription | SetPaymentMethod | RecordFeePaid | RecordFeeDeclined;

export type SubscriptionUpgraded = DomainEvent<
  'SubscriptionUpgraded',
  {
    from_tier: Tier;
    to_tier: Tier;
    at: string;
    period_start: string;
    period_end: string;
    credits: number;
    amount: number;
    currency: string;
    charged: boolean;
  }
>;
export type SubscriptionDowngradeScheduled = DomainEvent<
  'SubscriptionDowngradeScheduled',
  { from_tier: Tier; to_tier: Tier; at: string; effective_at: string }
>;
export type SubscriptionDowngradeCancelled = DomainEvent<
  'SubscriptionDowngradeCancelled',
  { tier: Tier; cancelled_tier: Tier; at: string }
>;
/** A period billed: every renewal, and the first period (`period` 0, whose allowance was granted at opening). */
export type SubscriptionRenewed = DomainEvent<
  'SubscriptionRenewed',
  {
    period: number;
    tier: Tier;
    previous_tier: Tier;
    period_start: string;
    period_end: string;
    credits: number;
    amount: number;
    currency: string;
    charged: boolean;
  }
>;
export type PaymentMethodSet = DomainEvent<'PaymentMethodSet', { payment_method: string; at: string }>;
export type SubscriptionFeePaid = DomainEvent<
  'SubscriptionFeePaid',
  { reference: string; amount: number; currency: string; payment_id: string }
>;
export type SubscriptionFeeDeclined = DomainEvent<
  'SubscriptionFeeDeclined',
  { reference: string; attempt: number; amount: number; currency: string; decline_code: string; reason: string }
>;
/** The period ended with a fee unpaid: the next one is on the free tier. */
export type SubscriptionLapsed = DomainEvent<
  'SubscriptionLapsed',
  { from_tier: Tier; to_tier: Tier; unpaid_amount: number; currency: string; at: string }
>;
export type SubscriptionEvent =
  | SubscriptionUpgraded
  | SubscriptionDowngradeScheduled
  | SubscriptionDowngradeCancelled
  | SubscriptionRenewed
  | PaymentMethodSet
  | SubscriptionFeePaid
  | SubscriptionFeeDeclined
  | SubscriptionLapsed;

const FREE: Tier = TIERS[0]!;
const tier = { enum: [...TIERS] };
const time = { type: 'string', format: 'date-time' };
const count = { type: 'integer', minimum: 0 };
const currency = { type: 'string', pattern: '^[A-Z]{3}$' };
const reference = { type: 'string', minLength: 1, maxLength: 200 };
const text = eventText;
const schema = (properties: Record<string, unknown>) => ({
  type: 'object',
  required: Object.keys(properties),
  additionalProperties: false,
  properties,
});
/** Whether the amount is charged through the payment port (false: settled otherwise, its credits granted with it). */
const charged = { type: 'boolean' };
/** v1 billing events predate charged fees: their amount was paid and their credits granted when written. */
const settledBeforeFees = { 1: (data: unknown) => ({ ...(data as object), charged: false }) };

/** The reference of a period's fee, and of an upgrade's: its name in events, at the provider and in the history. */
export const renewalFeeReference = (periodStart: string): string => `fee:${periodStart}`;
export const upgradeFeeReference = (periodStart: string, to: Tier): string => `upgrade:${periodStart}:${to}`;

/** What the fees not paid yet amount to (minor units). */
export const unpaidAmount = (fees: readonly Fee[]): number =>
  fees.filter((fee) => fee.status !== 'paid').reduce((sum, fee) => sum + fee.amount, 0);

/** `past_due`: a fee of the period is declined, or due with no payment method to charge it to. */
export function subscriptionStatus(state: SubscriptionState): 'active' | 'past_due' {
  const stuck = state.fees.some(
    (fee) => fee.status === 'declined' || (fee.status === 'due' && state.paymentMethod === null),
  );
  return stuck ? 'past_due' : 'active';
}

type SubscriptionReads = { subscription: SubscriptionState; credits: CreditsState };

export const subscriptionSlice: AccountSlice<
  SubscriptionState,
  SubscriptionCommand,
  SubscriptionEvent | CreditsGranted,
  SubscriptionReads
> = {
  commands: ['ChangeTier', 'RenewSubscription', 'SetPaymentMethod', 'RecordFeePaid', 'RecordFeeDeclined'],
  events: [
    {
      type: 'SubscriptionUpgraded',
      version: 2,
      schema: schema({
        from_tier: tier,
        to_tier: tier,
        at: time,
        period_start: time,
        period_end: time,
        credits: count,
        amount: count,
        currency,
        charged,
      }),
      upcasters: settledBeforeFees,
    },
    {
      type: 'SubscriptionDowngradeScheduled',
      version: 1,
      schema: schema({ from_tier: tier, to_tier: tier, at: time, effective_at: time }),
    },
    { type: 'SubscriptionDowngradeCancelled', version: 1, schema: schema({ tier, cancelled_tier: tier, at: time }) },
    {
      type: 'SubscriptionRenewed',
      version: 2,
      schema: schema({
        period: count,
        tier,
        previous_tier: tier,
        period_start: time,
        period_end: time,
        credits: count,
        amount: count,
        currency,
        charged,
      }),
      upcasters: settledBeforeFees,
    },
    { type: 'PaymentMethodSet', version: 1, schema: schema({ payment_method: reference, at: time }) },
    {
      type: 'SubscriptionFeePaid',
      version: 1,
      schema: schema({ reference, amount: count, currency, payment_id: reference }),
    },
    {
      type: 'SubscriptionFeeDeclined',
      version: 1,
      schema: schema({
        reference,
        attempt: { type: 'integer', minimum: 1 },
        amount: count,
        currency,
        decline_code: text,
        reason: text,
      }),
    },
    {
      type: 'SubscriptionLapsed',
      version: 1,
      schema: schema({ from_tier: tier, to_tier: tier, unpaid_amount: count, currency, at: time }),
    },
  ],

  initialState: () => ({
    tier: null,
    anchor: null,
    period: 0,
    periodStart: null,
    periodEnd: null,
    pendingTier: null,
    billing: 'card',
    paymentMethod: null,
    fees: [],
    firstPeriodBilled: false,
  }),

  evolve(state, event) {
    const e = event as SubscriptionEvent | AccountOpened;
    switch (e.type) {
      case 'AccountOpened':
        return {
          ...state,
          tier: e.data.tier,
          billing: e.data.billing ?? 'card',
          anchor: e.data.opened_at,
          period: 0,
          periodStart: e.data.opened_at,
          periodEnd: periodEnd(e.data.opened_at, 0),
        };
      case 'SubscriptionUpgraded': {
        const { period_start: start, to_tier, amount, currency: paidIn, credits } = e.data;
        const ref = upgradeFeeReference(start, to_tier);
        const fees =
          e.data.charged && amount > 0
            ? [...state.fees, dueFee(ref, amount, paidIn, credits, ref, `upgrade to ${to_tier}, prorated`)]
            : state.fees;
        return { ...state, tier: to_tier, pendingTier: null, fees };
      }
      case 'SubscriptionDowngradeScheduled':
        return { ...state, pendingTier: e.data.to_tier };
      case 'SubscriptionDowngradeCancelled':
        return { ...state, pendingTier: null };
      case 'SubscriptionRenewed': {
        const {
          tier: renewed,
          period,
          period_start: start,
          period_end: end,
          amount,
          currency: paidIn,
          credits,
        } = e.data;
        const fees =
          e.data.charged && amount > 0
            ? [
                dueFee(
                  renewalFeeReference(start),
                  amount,
                  paidIn,
                  credits,
                  allowanceReference(start),
                  allowanceReason(renewed),
                ),
              ]
            : [];
        return {
          ...state,
          tier: renewed,
          period,
          periodStart: start,
          periodEnd: end,
          pendingTier: null,
          fees,
          firstPeriodBilled: true,
        };
      }
      case 'PaymentMethodSet':
        // A new payment method is a new chance for the declined fees.
        return {
          ...state,
          paymentMethod: e.data.payment_method,
          fees: state.fees.map((fee) => (fee.status === 'declined' ? { ...fee, status: 'due' } : fee)),
        };
      case 'SubscriptionFeePaid':
        return {
          ...state,
          fees: state.fees.map((fee) =>
            fee.reference === e.data.reference ? { ...fee, status: 'paid', paymentId: e.data.payment_id } : fee,
          ),
        };
      case 'SubscriptionFeeDeclined':
        return {
          ...state,
          fees: state.fees.map((fee) =>
            fee.reference === e.data.reference ? { ...fee, status: 'declined', attempts: e.data.attempt } : fee,
          ),
        };
      default:
        return state;
    }
  },

  decide(command, account) {
    const { subscription: state, credits } = account;
    switch (command.type) {
      case 'ChangeTier':
        return changeTier(state, command);
      case 'RenewSubscription':
        return renew(state, command);
      case 'SetPaymentMethod': {
        const unchanged =
          command.paymentMethod === state.paymentMethod && !state.fees.some((fee) => fee.status === 'declined');
        return unchanged
          ? []
          : [{ type: 'PaymentMethodSet', data: { payment_method: command.paymentMethod, at: command.at } }];
      }
      case 'RecordFeePaid': {
        const fee = state.fees.find((candidate) => candidate.reference === command.reference);
        if (fee?.status === 'paid') return [];
        const { reference: ref, amount, currency: paidIn, paymentId } = command;
        const paid: SubscriptionFeePaid = {
          type: 'SubscriptionFeePaid',
          data: { reference: ref, amount, currency: paidIn, payment_id: paymentId },
        };
        // A fee of a period already renewed (paid while the renewal ran) is recorded, but buys nothing any more.
        if (!fee || fee.credits === 0 || credits.grants.get(fee.grant) !== undefined) return [paid];
        return [
          paid,
          { type: 'CreditsGranted', data: { reference: fee.grant, credits: fee.credits, reason: fee.reason } },
        ];
      }
      case 'RecordFeeDeclined': {
        const fee = state.fees.find((candidate) => candidate.reference === command.reference);
        if (!fee || fee.status === 'paid' || fee.attempts >= command.attempt) return [];
        const { reference: ref, attempt, declineCode, reason } = command;
        return [
          {
            type: 'SubscriptionFeeDeclined',
            data: {
              reference: ref,
              attempt,
              amount: fee.amount,
              currency: fee.currency,
              decline_code: declineCode,
              reason: fitted(reason),
            },
          },
        ];
      }
    }
  },
};

function changeTier(state: SubscriptionState, command: ChangeTier): (SubscriptionEvent | CreditsGranted)[] {
  const current = state.tier!;
  const start = state.periodStart!;
  const end = state.periodEnd!;
  if (command.at >= end)
    throw problem(Problems.conflict, 'the subscription period has ended; renew it before changing tier');
  if (command.tier === current) {
    if (state.pendingTier === null) return [];
    return [
      {
        type: 'SubscriptionDowngradeCancelled',
        data: { tier: current, cancelled_tier: state.pendingTier, at: command.at },
      },
    ];
  }
  if (TIERS.indexOf(command.tier) < TIERS.indexOf(current)) {
    if (state.pendingTier === command.tier) return [];
    return [
      {
        type: 'SubscriptionDowngradeScheduled',
        data: { from_tier: current, to_tier: command.tier, at: command.at, effective_at: end },
      },
    ];
  }
  const { pricing } = command;
  const fraction = remainingFraction(start, end, command.at);
  const from = pricing.tiers[current];
  const to = pricing.tiers[command.tier];
  const credits = Math.round((to.included_credits - from.included_credits) * fraction);
  const amount = Math.round(toMinorUnits(to.monthly_price - from.monthly_price, pricing.currency) * fraction);
  const charged = state.billing === 'card';
  if (charged && amount > 0 && state.paymentMethod === null)
    throw problem(
      PaymentMethodRequired,
      `the upgrade to ${command.tier} costs ${amount} (minor units of ${pricing.currency}) ` +
        'and there is no payment method on file',
    );
  const upgraded: SubscriptionUpgraded = {
    type: 'SubscriptionUpgraded',
    data: {
      from_tier: current,
      to_tier: command.tier,
      at: command.at,
      period_start: start,
      period_end: end,
      credits,
      amount,
      currency: pricing.currency,
      charged,
    },
  };
  // The downgrade the upgrade replaces is cancelled in so many words, so that the history does not leave it standing.
  const replaced: SubscriptionEvent[] =
    state.pendingTier === null
      ? []
      : [
          {
            type: 'SubscriptionDowngradeCancelled',
            data: { tier: current, cancelled_tier: state.pendingTier, at: command.at },
          },
        ];
  if (charged && amount > 0) return [...replaced, upgraded];
  const ref = upgradeFeeReference(start, command.tier);
  return [
    ...replaced,
    upgraded,
    { type: 'CreditsGranted', data: { reference: ref, credits, reason: `upgrade to ${command.tier}, prorated` } },
  ];
}

/**
 * Bills the first period once (while it runs), then renews every period that has ended by `at`: a
 * clock that jumped two months renews twice. A period that ended with a fee unpaid renews on free.
 */
function renew(state: SubscriptionState, command: RenewSubscription): (SubscriptionEvent | CreditsGranted)[] {
  const events: (SubscriptionEvent | CreditsGranted)[] = [];
  const { pricing, at } = command;
  const anchor = state.anchor!;
  let previousTier = state.tier!;
  const charged = state.billing === 'card';
  let unpaid = unpaidAmount(state.fees);
  if (!state.firstPeriodBilled && state.period === 0 && at < state.periodEnd!) {
    const amount = toMinorUnits(pricing.tiers[previousTier].monthly_price, pricing.currency);
    events.push(renewed(0, previousTier, previousTier, anchor, 0, amount, pricing.currency, charged));
  }
  let tier = state.pendingTier ?? previousTier;
  for (let period = state.period + 1; periodStart(anchor, period) <= at; period += 1) {
    const start = periodStart(anchor, period);
    if (unpaid > 0 && previousTier !== FREE) {
      events.push({
        type: 'SubscriptionLapsed',
        data: { from_tier: previousTier, to_tier: FREE, unpaid_amount: unpaid, currency: pricing.currency, at: start },
      });
      tier = FREE;
    }
    const price = pricing.tiers[tier];
    const amount = toMinorUnits(price.monthly_price, pricing.currency);
    events.push(renewed(period, tier, previousTier, anchor, price.included_credits, amount, pricing.currency, charged));
    // An allowance not charged for (free, invoiced) is granted now; a charged one's when its fee is paid.
    if (!charged || amount === 0)
      events.push({
        type: 'CreditsGranted',
        data: { reference: allowanceReference(start), credits: price.included_credits, reason: allowanceReason(tier) },
      });
    unpaid = charged ? amount : 0;
    previousTier = tier;
  }
  return events;
}

function renewed(
  period: number,
  tier: Tier,
  previousTier: Tier,
  anchor: string,
  credits: number,
  amount: number,
  paidIn: string,
  charged: boolean,
): SubscriptionRenewed {
  return {
    type: 'SubscriptionRenewed',
    data: {
      period,
      tier,
      previous_tier: previousTier,
      period_start: periodStart(anchor, period),
      period_end: periodEnd(anchor, period),
      credits,
      amount,
      currency: paidIn,
      charged,
    },
  };
}

const dueFee = (ref: string, amount: number, paidIn: string, credits: number, grant: string, reason: string): Fee => ({
  reference: ref,
  amount,
  currency: paidIn,
  credits,
  grant,
  reason,
  attempts: 0,
  status: 'due',
  paymentId: null,
});
const allowanceReference = (start: string): string => `allowance:${start}`;
const allowanceReason = (tier: Tier): string => `${tier} monthly allowance`;
