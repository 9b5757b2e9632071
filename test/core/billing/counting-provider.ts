import type { ChargeOutcome, ChargeRequest, PaymentProvider } from '../../../core/payments/payment-provider.js';

/** A provider that notes the idempotency key of every charge asked of it (a retry's too), then passes it on. */
export class CountingProvider implements PaymentProvider {
  readonly name = 'counting';
  readonly charged: string[] = [];
  constructor(private readonly provider: PaymentProvider) {}

  charge(request: ChargeRequest): Promise<ChargeOutcome> {
    this.charged.push(request.reference);
    return this.provider.charge(request);
  }

  lookup(reference: string): Promise<ChargeOutcome | null> {
    return this.provider.lookup(reference);
  }

  hasPaymentMethod(paymentToken: string): Promise<boolean> {
    return this.provider.hasPaymentMethod(paymentToken);
  }
}
