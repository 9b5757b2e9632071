import { createHash, randomUUID } from 'node:crypto';
import type { Clock } from '../clock.js';
import type { CreditsService } from '../accounts/credits-service.js';
import { openPurchase } from '../accounts/purchase-intents.js';
import { Problems, problem } from '../problems.js';
import { toMinorUnits } from '../pricing/money.js';
import {
  PaymentDeclined,
  PaymentProviderError,
  PaymentProviderUnavailable,
  UnknownCreditPack,
  type ChargeOutcome,
  type PaymentProvider,
} from '../payments/payment-provider.js';
import { creditPack, type Pricing } from '../pricing/pricing.js';
import { UNRECORDED_ORIGINAL } from '../idempotency/idempotency.js';

interface Sale {
  reference: string;
  pack: string;
  credits: number;
  amount: number;
  currency: string;
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
 * How long an open purchase is left to the request that started it before recovery asks the provider.
 * A provider adapter must give up on a charge well within it, so that recovery never closes a purchase
 * whose charge is still under way.
 */
export const PURCHASE_RECOVERY_AFTER_MS = 2 * 60_000;

/** The attempt of a request made under an Idempotency-Key: the key, and the request it retries (itself at first). */
export interface IdempotentAttempt {
  key: string;
  originalRequestId: string;
}

/**
 * The reference of a purchase made under an Idempotency-Key: the same for every retry of the request
 * within the key's use (a 5xx releases the key's claim, a dead instance's claim is taken over, and the
 * retry does the work again), so the retry charges the same idempotency key at the provider and never
 * pays twice. A later use of the key (after its retention) has another original request, so it is a new
 * purchase. Without a key, each request is a new purchase.
 */
export function purchaseReference(request: {
  accountId: string;
  mode: string;
  idempotency?: IdempotentAttempt;
}): string {
  if (request.idempotency === undefined) return `pur_${randomUUID()}`;
  const { key, originalRequestId } = request.idempotency;
  // A claim that recorded no original request was referenced by the key alone: its retry must reach the
  // same purchase (and the provider's same idempotency key), never a second one.
  const parts =
    originalRequestId === UNRECORDED_ORIGINAL
      ? [request.accountId, request.mode, key]
      : [request.accountId, request.mode, key, originalRequestId];
  const digest = createHash('sha256').update(JSON.stringify(parts)).digest('hex');
  return `pur_${digest.slice(0, 32)}`;
}

/**
 * Buying credit packs, crash-safe. The purchase is recorded first (`CreditPurchaseStarted`, its reference
 * the charge's idempotency key at the provider), then charged, then closed by its outcome. If the process
 * dies between the provider's approval and that last append, `recover` finds the open purchase and asks
 * the provider what became of it: approved, the credits are granted (once: the outcome is idempotent on
 * the reference); declined, the decline is recorded; unknown to the provider, nothing was charged and
 * the purchase is abandoned.
 */
export class CreditPurchases {
  constructor(
    private readonly credits: CreditsService,
    private readonly payments: PaymentProvider,
    private readonly pricing: Pricing,
    private readonly clock: Clock,
  ) {}

  async purchase({
    accountId,
    pack,
    paymentToken,
    reference,
  }: {
    accountId: string;
    pack: string;
    paymentToken: string;
    reference: string;
  }): Promise<PurchaseAnswer> {
    const offer = creditPack(this.pricing, pack);
    if (!offer)
      throw problem(
        UnknownCreditPack,
        `there is no credit pack "${pack}"; the packs are ${Object.keys(this.pricing.credit_packs).join(', ')}`,
      );
    // Checked before the charge: money is never taken for an account that cannot receive the credits.
    if ((await this.credits.account(accountId)).profile.accountId === null)
      throw problem(Problems.notFound, 'the account does not exist');
    const { currency } = this.pricing;
    const offered: Sale = {
      reference,
      pack,
      credits: offer.credits,
      amount: toMinorUnits(offer.price, currency),
      currency,
    };
    // The decider refuses another pack under a started purchase's reference; a retry then completes the
    // purchase as it was started, or answers it as it was settled (at the price asked of the provider
    // then, under the same idempotency key there), whatever the price list says now.
    const started = await this.credits.run(accountId, {
      type: 'StartCreditPurchase',
      ...offered,
      at: this.clock.now().toISOString(),
    });
    const sale: Sale = {
      ...(openPurchase(started.state.purchaseIntents, reference) ??
        started.state.credits.purchases.get(reference) ??
        offered),
      reference,
    };
    let charge: ChargeOutcome;
    try {
      charge = await this.payments.charge({
        reference,
        amount: sale.amount,
        currency: sale.currency,
        paymentToken,
        description: `${sale.credits} finsynth credits (${sale.pack} pack)`,
      });
    } catch (error) {
      if (!(error instanceof PaymentProviderError)) throw error;
      throw problem(
        PaymentProviderUnavailable,
        `${error.message} The purchase ${reference} is settled with the provider within minutes: ` +
          'if the payment went through, its credits are granted then; otherwise nothing is charged. ' +
          'The billing history shows which.',
        { purchase_id: reference },
      );
    }
    const result = await this.close(accountId, sale, charge);
    if (charge.outcome === 'declined') {
      throw problem(PaymentDeclined, `${charge.message} No credit was granted.`, {
        decline_code: charge.decline_code,
        purchase_id: reference,
      });
    }
    const { available, reserved } = result.state.credits;
    return {
      id: reference,
      pack: sale.pack,
      credits: sale.credits,
      amount: sale.amount,
      currency: sale.currency,
      payment_id: charge.payment_id,
      credits_available: available,
      credits_reserved: reserved,
      position: result.position,
    };
  }

  /**
   * Settles the account's purchases left open for longer than PURCHASE_RECOVERY_AFTER_MS by asking the
   * provider about each. A provider that cannot answer leaves them open for the next run.
   */
  async recover(accountId: string): Promise<{ recovered: number; position: number }> {
    const { pending } = (await this.credits.account(accountId)).purchaseIntents;
    const before = this.clock.now().getTime() - PURCHASE_RECOVERY_AFTER_MS;
    let recovered = 0;
    let position = 0;
    for (const [reference, intent] of Object.entries(pending)) {
      if (Date.parse(intent.at) > before) continue;
      let outcome: ChargeOutcome | null;
      try {
        outcome = await this.payments.lookup(reference);
      } catch (error) {
        if (error instanceof PaymentProviderError) continue;
        throw error;
      }
      const result = outcome
        ? await this.close(accountId, { reference, ...intent }, outcome)
        : await this.credits.run(accountId, {
            type: 'AbandonCreditPurchase',
            reference,
            reason: 'The payment provider holds no payment for this purchase: nothing was charged.',
          });
      recovered += result.events.length > 0 ? 1 : 0;
      position = Math.max(position, result.position);
    }
    return { recovered, position };
  }

  /**
   * Records the provider's answer. An approval is recorded even for a purchase already abandoned (a
   * charge that outlived the recovery's wait): the provider took the money, so the credits are due.
   */
  private close(accountId: string, { reference, pack, credits, amount, currency }: Sale, charge: ChargeOutcome) {
    return charge.outcome === 'approved'
      ? this.credits.run(accountId, {
          type: 'PurchaseCredits',
          reference,
          pack,
          credits,
          amount,
          currency,
          paymentId: charge.payment_id,
        })
      : this.credits.run(accountId, {
          type: 'RecordDeclinedPurchase',
          reference,
          pack,
          credits,
          amount,
          currency,
          declineCode: charge.decline_code,
          reason: charge.message,
        });
  }
}
