import type { Pricing } from '../../billing/pricing.js';
import { toMinorUnits } from '../../billing/money.js';
import { periodEnd, periodStart, remainingFraction } from '../../billing/periods.js';
import { Problems, problem } from '../../problems.js';
import type { DomainEvent } from '../decider.js';
import type { CreditsGranted } from './credits.js';
import { TIERS, type AccountOpened, type Tier } from './profile.js';
import type { AccountSlice } from './slice.js';

/**
 * The account's subscription: a tier and a monthly period anchored on the day the account opened.
 * An upgrade takes effect at once and tops the period's allowance up to the new tier's, prorated for
 * what remains of the period (the same proration for the price). A downgrade takes effect at the end
 * of the period, when the renewal applies it. Each renewal grants the tier's allowance for the new
 * period. Commands carry the time and the prices they are decided on, so decide stays pure and the
 * events record the amounts that applied, whatever the pricing file says later.
 */

export interface SubscriptionState {
  tier: Tier | null;
  anchor: string | null;
  period: number;
  periodStart: string | null;
  periodEnd: string | null;
  pendingTier: Tier | null;
}

export type ChangeTier = { type: 'ChangeTier'; tier: Tier; at: string; pricing: Pricing };
export type RenewSubscription = { type: 'RenewSubscription'; at: string; pricing: Pricing };
export type SubscriptionCommand = ChangeTier | RenewSubscription;

export type SubscriptionUpgraded = DomainEvent<
  'SubscriptionUpgraded',
  { from_tier: Tier; to_tier: Tier; at: string; period_start: string; period_end: string; credits: number; amount: number; currency: string }
>;
export type SubscriptionDowngradeScheduled = DomainEvent<
  'SubscriptionDowngradeScheduled',
  { from_tier: Tier; to_tier: Tier; at: string; effective_at: string }
>;
export type SubscriptionDowngradeCancelled = DomainEvent<'SubscriptionDowngradeCancelled', { tier: Tier; cancelled_tier: Tier; at: string }>;
export type SubscriptionRenewed = DomainEvent<
  'SubscriptionRenewed',
  { period: number; tier: Tier; previous_tier: Tier; period_start: string; period_end: string; credits: number; amount: number; currency: string }
>;
export type SubscriptionEvent = SubscriptionUpgraded | SubscriptionDowngradeScheduled | SubscriptionDowngradeCancelled | SubscriptionRenewed;

const tier = { enum: [...TIERS] };
const time = { type: 'string', format: 'date-time' };
const count = { type: 'integer', minimum: 0 };
const currency = { type: 'string', pattern: '^[A-Z]{3}$' };
const schema = (properties: Record<string, unknown>) => ({ type: 'object', required: Object.keys(properties), additionalProperties: false, properties });

export const subscriptionSlice: AccountSlice<SubscriptionState, SubscriptionCommand, SubscriptionEvent | CreditsGranted> = {
  commands: ['ChangeTier', 'RenewSubscription'],
  events: [
    { type: 'SubscriptionUpgraded', version: 1, schema: schema({ from_tier: tier, to_tier: tier, at: time, period_start: time, period_end: time, credits: count, amount: count, currency }) },
    { type: 'SubscriptionDowngradeScheduled', version: 1, schema: schema({ from_tier: tier, to_tier: tier, at: time, effective_at: time }) },
    { type: 'SubscriptionDowngradeCancelled', version: 1, schema: schema({ tier, cancelled_tier: tier, at: time }) },
    {
      type: 'SubscriptionRenewed',
      version: 1,
      schema: schema({ period: count, tier, previous_tier: tier, period_start: time, period_end: time, credits: count, amount: count, currency }),
    },
  ],

  initialState: () => ({ tier: null, anchor: null, period: 0, periodStart: null, periodEnd: null, pendingTier: null }),

  evolve(state, event) {
    const e = event as SubscriptionEvent | AccountOpened;
    switch (e.type) {
      case 'AccountOpened':
        return { ...state, tier: e.data.tier, anchor: e.data.opened_at, period: 0, periodStart: e.data.opened_at, periodEnd: periodEnd(e.data.opened_at, 0) };
      case 'SubscriptionUpgraded':
        return { ...state, tier: e.data.to_tier, pendingTier: null };
      case 'SubscriptionDowngradeScheduled':
        return { ...state, pendingTier: e.data.to_tier };
      case 'SubscriptionDowngradeCancelled':
        return { ...state, pendingTier: null };
      case 'SubscriptionRenewed':
        return { ...state, tier: e.data.tier, period: e.data.period, periodStart: e.data.period_start, periodEnd: e.data.period_end, pendingTier: null };
      default:
        return state;
    }
  },

  decide(command, account) {
    const state = (account as { subscription: SubscriptionState }).subscription;
    return command.type === 'ChangeTier' ? changeTier(state, command) : renew(state, command);
  },
};

function changeTier(state: SubscriptionState, command: ChangeTier): (SubscriptionEvent | CreditsGranted)[] {
  const current = state.tier!;
  const start = state.periodStart!;
  const end = state.periodEnd!;
  if (command.at >= end) throw problem(Problems.conflict, 'the subscription period has ended; renew it before changing tier');
  if (command.tier === current) {
    if (state.pendingTier === null) return [];
    return [{ type: 'SubscriptionDowngradeCancelled', data: { tier: current, cancelled_tier: state.pendingTier, at: command.at } }];
  }
  if (TIERS.indexOf(command.tier) < TIERS.indexOf(current)) {
    if (state.pendingTier === command.tier) return [];
    return [{ type: 'SubscriptionDowngradeScheduled', data: { from_tier: current, to_tier: command.tier, at: command.at, effective_at: end } }];
  }
  const { pricing } = command;
  const fraction = remainingFraction(start, end, command.at);
  const from = pricing.tiers[current];
  const to = pricing.tiers[command.tier];
  const credits = Math.round((to.included_credits - from.included_credits) * fraction);
  const amount = Math.round(toMinorUnits(to.monthly_price - from.monthly_price, pricing.currency) * fraction);
  return [
    {
      type: 'SubscriptionUpgraded',
      data: { from_tier: current, to_tier: command.tier, at: command.at, period_start: start, period_end: end, credits, amount, currency: pricing.currency },
    },
    { type: 'CreditsGranted', data: { reference: `upgrade:${start}:${command.tier}`, credits, reason: `upgrade to ${command.tier}, prorated` } },
  ];
}

/** One renewal per period that has ended by `at`: a clock that jumped two months renews twice. */
function renew(state: SubscriptionState, command: RenewSubscription): (SubscriptionEvent | CreditsGranted)[] {
  const events: (SubscriptionEvent | CreditsGranted)[] = [];
  const anchor = state.anchor!;
  let previousTier = state.tier!;
  const tier = state.pendingTier ?? previousTier;
  const price = command.pricing.tiers[tier];
  for (let period = state.period + 1; periodStart(anchor, period) <= command.at; period += 1) {
    const start = periodStart(anchor, period);
    events.push(
      {
        type: 'SubscriptionRenewed',
        data: {
          period,
          tier,
          previous_tier: previousTier,
          period_start: start,
          period_end: periodEnd(anchor, period),
          credits: price.included_credits,
          amount: toMinorUnits(price.monthly_price, command.pricing.currency),
          currency: command.pricing.currency,
        },
      },
      { type: 'CreditsGranted', data: { reference: `allowance:${start}`, credits: price.included_credits, reason: `${tier} monthly allowance` } },
    );
    previousTier = tier;
  }
  return events;
}
