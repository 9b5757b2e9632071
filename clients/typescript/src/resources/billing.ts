import type { JsonBodyOf, QueryOf } from '../operation-types.js';
import { unwrap, type Requester, type RequestOptions } from '../requester.js';

export type Tier = JsonBodyOf<'changeTier'>['tier'];
export type PurchaseBody = JsonBodyOf<'purchaseCredits'>;
export type PaymentMethodBody = JsonBodyOf<'setPaymentMethod'>;

/** Subscription, credit balance, purchases and history: live money, so live keys only. */
export class Billing {
  constructor(private readonly requester: Requester) {}

  subscription(options?: RequestOptions) {
    return unwrap(this.requester.raw.GET('/v1/billing/subscription', this.requester.init(options)));
  }

  /** Upgrades at once (prorated), or schedules a downgrade for the end of the period. */
  changeTier(tier: Tier, extra: Omit<JsonBodyOf<'changeTier'>, 'tier'> = {}, options?: RequestOptions) {
    const body = { ...extra, tier };
    return unwrap(this.requester.raw.POST('/v1/billing/subscription', { body, ...this.requester.init(options) }));
  }

  /** The balance: `credits_available` and `credits_reserved`. */
  credits(options?: RequestOptions) {
    return unwrap(this.requester.raw.GET('/v1/billing/credits', this.requester.init(options)));
  }

  /** Buys a credit pack with a payment token. */
  purchase(body: PurchaseBody, options?: RequestOptions) {
    return unwrap(this.requester.raw.POST('/v1/billing/credits', { body, ...this.requester.init(options) }));
  }

  setPaymentMethod(body: PaymentMethodBody, options?: RequestOptions) {
    return unwrap(this.requester.raw.PUT('/v1/billing/payment-method', { body, ...this.requester.init(options) }));
  }

  history(params: Omit<QueryOf<'listBillingHistory'>, 'cursor'> = {}, options?: RequestOptions) {
    return this.requester.list((cursor) =>
      this.requester.raw.GET('/v1/billing/history', {
        params: { query: { ...params, cursor } },
        ...this.requester.init(options),
      }),
    );
  }
}
