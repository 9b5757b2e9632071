import { defineProblem } from '../problems.js';

/**
 * One charge of a payment method, in minor units. `reference` is the charge's idempotency key at the
 * provider: the same reference again answers the first outcome and never charges twice.
 */
export interface ChargeRequest {
  reference: string;
  amount: number;
  currency: string;
  /** The payment method, tokenized by the provider's client-side library: card numbers never reach us. */
  paymentToken: string;
  description: string;
}

export type ChargeOutcome =
  { outcome: 'approved'; payment_id: string } | { outcome: 'declined'; decline_code: string; message: string };

/**
 * The port to a payment provider. An approval or a decline is an answer; a provider that cannot
 * answer (down, timing out, erroring) throws PaymentProviderError: whether it charged is then unknown
 * until `lookup` says.
 */
export interface PaymentProvider {
  readonly name: string;
  charge(request: ChargeRequest): Promise<ChargeOutcome>;
  /** The outcome of the charge made with this idempotency key; null if the provider holds none (nothing charged). */
  lookup(reference: string): Promise<ChargeOutcome | null>;
  /** Whether the provider holds this payment method (a token its client library issued). */
  hasPaymentMethod(paymentToken: string): Promise<boolean>;
}

export class PaymentProviderError extends Error {
  override name = 'PaymentProviderError';
}

export const PaymentDeclined = defineProblem({
  slug: 'payment-declined',
  title: 'Payment Required',
  status: 402,
  description:
    'The payment provider declined the payment; `decline_code` says why. ' +
    'No credit was granted and nothing was charged. The decline is listed in the billing history.',
});

export const PaymentProviderUnavailable = defineProblem({
  slug: 'payment-provider-unavailable',
  title: 'Bad Gateway',
  status: 502,
  description:
    'The payment provider could not process the payment. Nothing was charged and no credit was granted; retry later.',
});

export const UnknownCreditPack = defineProblem({
  slug: 'unknown-credit-pack',
  title: 'Bad Request',
  status: 400,
  description: 'The credit pack is not in the price list; GET /v1/billing/credits lists the packs.',
});

export const UnknownPaymentMethod = defineProblem({
  slug: 'unknown-payment-method',
  title: 'Bad Request',
  status: 400,
  description:
    'The payment provider holds no such payment method: `payment_token` comes from its client library (the sandbox ' +
    'tokens are listed in docs/credits.md). Nothing was changed.',
});

export const PaymentMethodRequired = defineProblem({
  slug: 'payment-method-required',
  title: 'Payment Required',
  status: 402,
  description:
    "A paid tier's fee is charged to the payment method on file, and there is none: " +
    'set one (PUT /v1/billing/payment-method, or `payment_token` in the tier change).',
});
