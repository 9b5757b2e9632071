import type { Clock } from '../clock.js';
import type { CreditsService } from '../accounts/credits-service.js';
import type { AccountEvent, AccountState } from '../accounts/account.js';
import type { Tier } from '../accounts/profile.js';
import { subscriptionStatus, unpaidAmount, upgradeFeeReference, type Fee } from '../accounts/subscription.js';
import { Problems, problem } from '../problems.js';
import { CreditPurchases, purchaseReference, type IdempotentAttempt, type PurchaseAnswer } from './credit-purchases.js';
import { collectFees, type FeeCollection } from './fee-collection.js';
import { toMinorUnits } from '../pricing/money.js';
import {
  PaymentProviderError,
  PaymentProviderUnavailable,
  UnknownPaymentMethod,
  type PaymentProvider,
} from '../payments/payment-provider.js';
import type { Pricing } from '../pricing/pricing.js';

export type { PurchaseAnswer };

export interface SubscriptionView {
  tier: Tier;
  /** `past_due`: a fee of the period was declined, or there is no payment method to charge it to. */
  status: 'active' | 'past_due';
  current_period_start: string;
  current_period_end: string;
  /** A downgrade waiting for the end of the period. */
  pending_change: { tier: Tier; effective_at: string } | null;
  monthly_price: { amount: number; currency: string };
  included_credits: number;
  rate_limit_per_s: number;
  concurrent_jobs: number | null;
  /** The provider's token of the payment method fees are charged to. */
  payment_method: string | null;
  /** Fees of the current period not paid yet (minor units). */
  unpaid: { amount: number; currency: string };
}

/** One account's failure in a billing run, which went on with the other accounts. */
export class AccountBillingFailed extends Error {
  override name = 'AccountBillingFailed';
  constructor(
    readonly accountId: string,
    cause: unknown,
  ) {
    super(
      `the billing run failed for account ${accountId}: ${cause instanceof Error ? cause.message : String(cause)}`,
      { cause },
    );
  }
}

export type TierChange = 'upgraded' | 'downgrade_scheduled' | 'downgrade_cancelled' | 'unchanged';

/** The charge of an upgrade's fee: `unavailable` is retried by the billing run. */
export interface FeePayment {
  status: 'paid' | 'declined' | 'unavailable';
  payment_id: string | null;
  decline_code: string | null;
}

export interface TierChangeAnswer {
  change: TierChange;
  /** When the change takes effect: now for an upgrade, the end of the period for a downgrade. */
  effective_at: string;
  /**
   * Credits granted now (upgrades only): the allowance difference prorated for the rest of the period,
   * once its fee is paid; an invoiced account's at once, its fee going on the invoice.
   */
  credits_granted: number;
  /** Billed now (minor units): the price difference prorated for the rest of the period (upgrades only). */
  amount: number;
  currency: string;
  /** The charge of that amount; null when nothing was charged (an invoiced account's fee is not charged here). */
  payment: FeePayment | null;
  /** The same, in a sentence for people. */
  message: string;
  subscription: SubscriptionView;
  position: number;
}

/**
 * Subscriptions, their fees, and credit purchases. The account stream is the truth: every answer is
 * folded from it, and every change is a command on it, queued with the account's credit commands.
 */
export class BillingService {
  private readonly purchases: CreditPurchases;

  constructor(
    private readonly credits: CreditsService,
    private readonly payments: PaymentProvider,
    readonly pricing: Pricing,
    private readonly clock: Clock,
  ) {
    this.purchases = new CreditPurchases(credits, payments, pricing, clock);
  }

  async subscription(accountId: string): Promise<SubscriptionView> {
    return this.view(await this.credits.account(accountId));
  }

  /**
   * Sets the payment method fees are charged to, then charges what is due with it (a declined fee
   * is charged again with the new method).
   */
  async setPaymentMethod(
    accountId: string,
    paymentToken: string,
  ): Promise<{ subscription: SubscriptionView; position: number }> {
    const set = await this.keepPaymentMethod(accountId, paymentToken);
    const { position } = await this.collect(accountId);
    return { subscription: await this.subscription(accountId), position: Math.max(set.position, position) };
  }

  /**
   * Renews (and bills) what is due first, so a change is always decided within the current period; an
   * upgrade's fee is charged at once, to `paymentToken` if given (it becomes the payment method on file).
   */
  async changeTier(accountId: string, tier: Tier, paymentToken?: string): Promise<TierChangeAnswer> {
    if (paymentToken !== undefined) await this.keepPaymentMethod(accountId, paymentToken);
    await this.renew(accountId);
    const at = this.clock.now().toISOString();
    // Renewing stops short of now only while the provider cannot answer for a fee due; the decider's
    // "renew it first" would tell the customer to do what only the billing run can.
    const { periodEnd } = (await this.credits.account(accountId)).subscription;
    if (periodEnd !== null && periodEnd <= at) {
      throw problem(
        PaymentProviderUnavailable,
        `the period ended at ${periodEnd} and its renewal waits for the payment provider, ` +
          'which did not answer for the fees due; the tier can be changed once it is renewed. Retry later, ' +
          'or give another payment_token.',
      );
    }
    const result = await this.credits.run(accountId, { type: 'ChangeTier', tier, at, pricing: this.pricing });
    const { collected, position } = await this.collect(accountId);
    const account = await this.credits.account(accountId);
    const subscription = this.view(account);
    const answer = describeChange(
      result.events,
      subscription,
      at,
      this.pricing.currency,
      chargesOf(collected, account.subscription.fees),
    );
    return { ...answer, subscription, position: Math.max(result.position, position) };
  }

  /**
   * Bills every period of the account that has ended by now (the first one too, once), and charges the
   * fees due. Fees are charged first, so that a charge approved but never recorded (a run that died) is
   * recorded paid before its period can lapse; while the provider cannot answer, the account is neither
   * renewed nor lapsed. Periods are renewed one at a time, each fee tried before the next renewal, so a
   * run after a long outage never lapses an account for a fee it did not try. How far to renew is read
   * before the fees are charged, so a period another instance renews meanwhile is not renewed past here.
   */
  async renew(accountId: string): Promise<{ renewals: number; position: number }> {
    let renewals = 0;
    let position = 0;
    for (let last = false; !last;) {
      const next = await this.nextRenewal(accountId);
      const charged = await this.collect(accountId);
      position = Math.max(position, charged.position);
      if ([...charged.collected.values()].some((charge) => charge.outcome === 'unavailable'))
        return { renewals, position };
      const result = await this.credits.run(accountId, {
        type: 'RenewSubscription',
        at: next.at,
        pricing: this.pricing,
      });
      renewals += result.events.filter((event) => event.type === 'SubscriptionRenewed').length;
      position = Math.max(position, result.position);
      last = next.last;
    }
    const charged = await this.collect(accountId);
    return { renewals, position: Math.max(position, charged.position) };
  }

  /**
   * The billing run over the accounts the billing projection lists as having work: renewals and first
   * periods to bill, fees to charge, purchases left open by a process that died. An account whose billing
   * fails is listed in `failed` and the run goes on with the others: one account never holds back the
   * billing of every account after it.
   */
  async runDue(
    accountIds: Iterable<string>,
  ): Promise<{ renewals: number; recovered: number; position: number; failed: AccountBillingFailed[] }> {
    let renewals = 0;
    let recovered = 0;
    let position = 0;
    const failed: AccountBillingFailed[] = [];
    for (const accountId of accountIds) {
      try {
        const renewed = await this.renew(accountId);
        const recovery = await this.purchases.recover(accountId);
        renewals += renewed.renewals;
        recovered += recovery.recovered;
        position = Math.max(position, renewed.position, recovery.position);
      } catch (error) {
        failed.push(new AccountBillingFailed(accountId, error));
      }
    }
    return { renewals, recovered, position, failed };
  }

  /** A purchase under an Idempotency-Key has one reference, whatever the retries of its request (purchaseReference). */
  purchase(request: {
    accountId: string;
    mode: string;
    pack: string;
    paymentToken: string;
    idempotency?: IdempotentAttempt;
  }): Promise<PurchaseAnswer> {
    return this.purchases.purchase({ ...request, reference: purchaseReference(request) });
  }

  /** A token is kept on file only if the provider holds it, so that fees are never due to a method that cannot pay. */
  private async keepPaymentMethod(accountId: string, paymentToken: string) {
    let held: boolean;
    try {
      held = await this.payments.hasPaymentMethod(paymentToken);
    } catch (error) {
      if (!(error instanceof PaymentProviderError)) throw error;
      throw problem(PaymentProviderUnavailable, `${error.message} The payment method was not changed; retry later.`);
    }
    if (!held)
      throw problem(
        UnknownPaymentMethod,
        `the payment provider (${this.payments.name}) holds no payment method "${paymentToken}"; nothing was changed`,
      );
    return this.credits.run(accountId, {
      type: 'SetPaymentMethod',
      paymentMethod: paymentToken,
      at: this.clock.now().toISOString(),
    });
  }

  /** Renewing up to the end of the current period renews that one period only; up to now, the last. */
  private async nextRenewal(accountId: string): Promise<{ at: string; last: boolean }> {
    const now = this.clock.now().toISOString();
    const end = (await this.credits.account(accountId)).subscription.periodEnd;
    return end !== null && end < now ? { at: end, last: false } : { at: now, last: true };
  }

  private collect(accountId: string) {
    return collectFees(this.credits, this.payments, accountId);
  }

  private view(account: AccountState): SubscriptionView {
    const { subscription } = account;
    if (subscription.tier === null) throw problem(Problems.notFound, 'the account does not exist');
    const price = this.pricing.tiers[subscription.tier];
    const { currency } = this.pricing;
    return {
      tier: subscription.tier,
      status: subscriptionStatus(subscription),
      current_period_start: subscription.periodStart!,
      current_period_end: subscription.periodEnd!,
      pending_change: subscription.pendingTier && {
        tier: subscription.pendingTier,
        effective_at: subscription.periodEnd!,
      },
      monthly_price: { amount: toMinorUnits(price.monthly_price, currency), currency },
      included_credits: price.included_credits,
      rate_limit_per_s: price.rate_limit_per_s,
      concurrent_jobs: price.concurrent_jobs,
      payment_method: subscription.paymentMethod,
      unpaid: { amount: unpaidAmount(subscription.fees), currency },
    };
  }
}

function describeChange(
  events: AccountEvent[],
  subscription: SubscriptionView,
  at: string,
  currency: string,
  collected: Map<string, FeeCollection>,
): Omit<TierChangeAnswer, 'subscription' | 'position'> {
  // An upgrade that replaces a scheduled downgrade cancels it first: the upgrade is what the answer is about.
  const event = events.find((candidate) => candidate.type === 'SubscriptionUpgraded') ?? events[0];
  const none = { credits_granted: 0, amount: 0, currency, payment: null };
  switch (event?.type) {
    case 'SubscriptionUpgraded': {
      const { to_tier, credits, amount, currency: billedIn, period_start, period_end, charged } = event.data;
      const charge = collected.get(upgradeFeeReference(period_start, to_tier));
      const payment = charge ? feePayment(charge) : null;
      // An invoiced account's fee is not charged here (`charged: false`): its credits came with the upgrade.
      const granted = !charged || amount === 0 || payment?.status === 'paid';
      const upgraded = {
        change: 'upgraded' as const,
        effective_at: at,
        credits_granted: granted ? credits : 0,
        amount,
        currency: billedIn,
        payment,
      };
      const done =
        `Upgraded to ${to_tier} now; ${credits} credits granted for the rest of the period, ` +
        `which ends ${period_end}.`;
      const why = charge && charge.outcome !== 'approved' ? charge.message : 'The payment is pending.';
      const told =
        !charged && amount > 0
          ? `${done} Its prorated fee, ${amount} (minor units of ${billedIn}), ` +
            `goes on the account's invoice: nothing is charged here.`
          : granted
            ? done
            : `Upgraded to ${to_tier} now, but its fee is not paid: ${why} The ${credits} credits of the upgrade are ` +
              'granted once it is; set a payment method (PUT /v1/billing/payment-method) to pay it. ' +
              `A fee still unpaid at the end of the period (${period_end}) moves the subscription to free.`;
      const cancelled = events.find((candidate) => candidate.type === 'SubscriptionDowngradeCancelled');
      return {
        ...upgraded,
        message: cancelled
          ? `${told} The downgrade to ${cancelled.data.cancelled_tier} scheduled for ${period_end} is cancelled.`
          : told,
      };
    }
    case 'SubscriptionDowngradeScheduled':
      return {
        change: 'downgrade_scheduled',
        effective_at: event.data.effective_at,
        ...none,
        message:
          `Downgrade to ${event.data.to_tier} scheduled for the end of the period, ` +
          `${event.data.effective_at}; ${event.data.from_tier} stays in effect until then.`,
      };
    case 'SubscriptionDowngradeCancelled':
      return {
        change: 'downgrade_cancelled',
        effective_at: at,
        ...none,
        message: `The scheduled downgrade to ${event.data.cancelled_tier} is cancelled; ${event.data.tier} continues.`,
      };
    default:
      return {
        change: 'unchanged',
        effective_at: at,
        ...none,
        message: `The subscription is already ${subscription.tier}; nothing changed.`,
      };
  }
}

/**
 * What became of each fee: this request's charges, overridden by the payments recorded, which may be
 * another's (the billing run of another instance may pay a fee between its append and this request's charge).
 */
function chargesOf(collected: Map<string, FeeCollection>, fees: readonly Fee[]): Map<string, FeeCollection> {
  const charges = new Map(collected);
  for (const fee of fees)
    if (fee.paymentId !== null) charges.set(fee.reference, { outcome: 'approved', payment_id: fee.paymentId });
  return charges;
}

function feePayment(charge: FeeCollection): FeePayment {
  switch (charge.outcome) {
    case 'approved':
      return { status: 'paid', payment_id: charge.payment_id, decline_code: null };
    case 'declined':
      return { status: 'declined', payment_id: null, decline_code: charge.decline_code };
    case 'unavailable':
      return { status: 'unavailable', payment_id: null, decline_code: null };
  }
}
