import { createHash } from 'node:crypto';
import { PaymentProviderError, type ChargeOutcome, type ChargeRequest, type PaymentProvider } from './payment-provider.js';
import { SANDBOX_CARDS, UNKNOWN_TOKEN } from './sandbox-cards.js';

/**
 * A payment provider that moves no money: the card token decides the answer (sandbox-cards.ts). It
 * behaves as a real one would where it matters: a charge is idempotent on its reference (the same
 * payment id again), and a failure throws rather than answers.
 */
export class SandboxPaymentProvider implements PaymentProvider {
  readonly name = 'sandbox';

  async charge(request: ChargeRequest): Promise<ChargeOutcome> {
    const behaviour = SANDBOX_CARDS[request.paymentToken] ?? UNKNOWN_TOKEN;
    switch (behaviour.result) {
      case 'approve':
        return { outcome: 'approved', payment_id: `pay_sandbox_${createHash('sha256').update(request.reference).digest('hex').slice(0, 24)}` };
      case 'decline':
        return { outcome: 'declined', decline_code: behaviour.decline_code, message: behaviour.message };
      case 'fail':
        throw new PaymentProviderError(behaviour.message);
    }
  }
}
