import { randomUUID } from 'node:crypto';
import type { Clock } from '../clock.js';
import type { CreditsService } from '../credits/credits-service.js';
import type { AccountEvent, AccountState } from '../domain/account/index.js';
import type { Tier } from '../domain/account/profile.js';
import { Problems, problem } from '../problems.js';
import { toMinorUnits } from './money.js';
import { PaymentDeclined, PaymentProviderError, PaymentProviderUnavailable, UnknownCreditPack, type PaymentProvider } from './payment-provider.js';
import type { Pricing } from './pricing.js';

export interface SubscriptionView {
  tier: Tier;
  current_period_start: string;
  current_period_end: string;
  /** A downgrade waiting for the end of the period. */
  pending_change: { tier: Tier; effective_at: string } | null;
  monthly_price: { amount: number; currency: string };
  included_credits: number;
  rate_limit_per_s: number;
  concurrent_jobs: number | null;
}

export type TierChange = 'upgraded' | 'downgrade_scheduled' | 'downgrade_cancelled' | 'unchanged';

export interface TierChangeAnswer {
  change: TierChange;
  /** When the change takes effect: now for an upgrade, the end of the period for a downgrade. */
  effective_at: string;
  /** Credits granted now: the allowance difference prorated for the rest of the period (upgrades only). */
  credits_granted: number;
  /** Charged now (minor units): the price difference prorated for the rest of the period (upgrades only). */
  amount: number;
  currency: string;
  /** The same, in a sentence for people. */
  message: string;
  subscription: SubscriptionView;
  position: number;
}

export interface PurchaseAnswer {
  id: string;
  pack: string;
  credits: number;
  amount: number;
  currency: string;
  payment_id: string;
  credits_available: number;
  credits_reserved: number;
  position: number;
}

/**
 * Subscriptions and credit purchases. The account stream is the truth: every answer is folded from
 * it, and every change is a command on it, queued with the account's credit commands.
 */
export class BillingService {
  constructor(
    private readonly credits: CreditsService,
    private readonly payments: PaymentProvider,
    readonly pricing: Pricing,
    private readonly clock: Clock,
  ) {}

  async subscription(accountId: string): Promise<SubscriptionView> {
    return this.view(await this.credits.account(accountId));
  }

  /** Renews what is due first, so a change is always decided within the current period. */
  async changeTier(accountId: string, tier: Tier): Promise<TierChangeAnswer> {
    await this.renew(accountId);
    const at = this.clock.now().toISOString();
    const result = await this.credits.run(accountId, { type: 'ChangeTier', tier, at, pricing: this.pricing });
    const subscription = this.view(result.state);
    return { ...describeChange(result.events, subscription, at, this.pricing.currency), subscription, position: result.position };
  }

  /** Grants the allowance of every period of the account that has ended by now. */
  async renew(accountId: string): Promise<{ renewals: number; position: number }> {
    const result = await this.credits.run(accountId, { type: 'RenewSubscription', at: this.clock.now().toISOString(), pricing: this.pricing });
    return { renewals: result.events.filter((event) => event.type === 'SubscriptionRenewed').length, position: result.position };
  }

  /** The monthly renewal run: every listed account whose period has ended (the billing projection lists them). */
  async renewDue(accountIds: Iterable<string>): Promise<{ renewals: number; position: number }> {
    let renewals = 0;
    let position = 0;
    for (const accountId of accountIds) {
      const renewed = await this.renew(accountId);
      renewals += renewed.renewals;
      position = Math.max(position, renewed.position);
    }
    return { renewals, position };
  }

  /**
   * Charges the pack's price, then grants its credits. A decline is recorded (the billing history shows
   * it) and answered with 402 `payment-declined` and the reason; a provider failure records nothing.
   */
  async purchase({ accountId, pack, paymentToken, reference = `pur_${randomUUID()}` }: { accountId: string; pack: string; paymentToken: string; reference?: string }): Promise<PurchaseAnswer> {
    const offer = this.pricing.credit_packs[pack];
    if (!offer) throw problem(UnknownCreditPack, `there is no credit pack "${pack}"; the packs are ${Object.keys(this.pricing.credit_packs).join(', ')}`);
    // Checked before the charge: money is never taken for an account that cannot receive the credits.
    if ((await this.credits.account(accountId)).profile.accountId === null) throw problem(Problems.notFound, 'the account does not exist');
    const currency = this.pricing.currency;
    const amount = toMinorUnits(offer.price, currency);
    const sale = { reference, pack, credits: offer.credits, amount, currency };
    let charge;
    try {
      charge = await this.payments.charge({ reference, amount, currency, paymentToken, description: `${offer.credits} finsynth credits (${pack} pack)` });
    } catch (error) {
      if (!(error instanceof PaymentProviderError)) throw error;
      throw problem(PaymentProviderUnavailable, `${error.message} Nothing was charged; retry later.`, { purchase_id: reference });
    }
    if (charge.outcome === 'declined') {
      await this.credits.run(accountId, { type: 'RecordDeclinedPurchase', ...sale, declineCode: charge.decline_code, reason: charge.message });
      throw problem(PaymentDeclined, `${charge.message} No credit was granted.`, { decline_code: charge.decline_code, purchase_id: reference });
    }
    const result = await this.credits.run(accountId, { type: 'PurchaseCredits', ...sale, paymentId: charge.payment_id });
    const { available, reserved } = result.state.credits;
    return { id: reference, pack, credits: offer.credits, amount, currency, payment_id: charge.payment_id, credits_available: available, credits_reserved: reserved, position: result.position };
  }

  private view(account: AccountState): SubscriptionView {
    const { subscription } = account;
    if (subscription.tier === null) throw problem(Problems.notFound, 'the account does not exist');
    const price = this.pricing.tiers[subscription.tier];
    return {
      tier: subscription.tier,
      current_period_start: subscription.periodStart!,
      current_period_end: subscription.periodEnd!,
      pending_change: subscription.pendingTier && { tier: subscription.pendingTier, effective_at: subscription.periodEnd! },
      monthly_price: { amount: toMinorUnits(price.monthly_price, this.pricing.currency), currency: this.pricing.currency },
      included_credits: price.included_credits,
      rate_limit_per_s: price.rate_limit_per_s,
      concurrent_jobs: price.concurrent_jobs,
    };
  }
}

function describeChange(events: AccountEvent[], subscription: SubscriptionView, at: string, currency: string): Omit<TierChangeAnswer, 'subscription' | 'position'> {
  const [event] = events;
  const none = { credits_granted: 0, amount: 0, currency };
  switch (event?.type) {
    case 'SubscriptionUpgraded':
      return {
        change: 'upgraded',
        effective_at: at,
        credits_granted: event.data.credits,
        amount: event.data.amount,
        currency: event.data.currency,
        message: `Upgraded to ${event.data.to_tier} now; ${event.data.credits} credits granted for the rest of the period, which ends ${event.data.period_end}.`,
      };
    case 'SubscriptionDowngradeScheduled':
      return { change: 'downgrade_scheduled', effective_at: event.data.effective_at, ...none, message: `Downgrade to ${event.data.to_tier} scheduled for the end of the period, ${event.data.effective_at}; ${event.data.from_tier} stays in effect until then.` };
    case 'SubscriptionDowngradeCancelled':
      return { change: 'downgrade_cancelled', effective_at: at, ...none, message: `The scheduled downgrade to ${event.data.cancelled_tier} is cancelled; ${event.data.tier} continues.` };
    default:
      return { change: 'unchanged', effective_at: at, ...none, message: `The subscription is already ${subscription.tier}; nothing changed.` };
  }
}
