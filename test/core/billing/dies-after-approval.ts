import type { ChargeOutcome, ChargeRequest, PaymentProvider } from '../../../core/payments/payment-provider.js';

/**
 * The service's process dies right after the provider approved a charge: the charge is made at the
 * provider, and nothing after it runs here (the error stands for the process's end). Lookups (and payment
 * methods) pass.
 */
export class DiesAfterApproval implements PaymentProvider {
  readonly name = 'dies-after-approval';
  constructor(private readonly provider: PaymentProvider) {}

  async charge(request: ChargeRequest): Promise<ChargeOutcome> {
    await this.provider.charge(request);
    throw new Error('the process died after the payment was approved');
  }

  lookup(reference: string): Promise<ChargeOutcome | null> {
    return this.provider.lookup(reference);
  }

  hasPaymentMethod(paymentToken: string): Promise<boolean> {
    return this.provider.hasPaymentMethod(paymentToken);
  }
}
