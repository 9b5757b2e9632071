import { createHash } from 'node:crypto';
import {
  PaymentProviderError,
  type ChargeOutcome,
  type ChargeRequest,
  type PaymentProvider,
} from './payment-provider.js';
import { SANDBOX_CARDS, UNKNOWN_TOKEN } from './sandbox-cards.js';

/**
 * A payment provider that moves no money: the card token decides the answer (sandbox-cards.ts). It
 * behaves as a real one would where it matters: a charge is idempotent on its reference (the same
 * reference again answers the first outcome), a failure throws rather than answers and charges
 * nothing, `lookup` finds a charge by its reference, and only its cards are payment methods it holds.
 * It remembers its charges in memory, for the life of the process, as the provider's own records would
 * outlive a crash of the service.
 */
export class SandboxPaymentProvider implements PaymentProvider {
  readonly name = 'sandbox';
  private readonly charges = new Map<string, ChargeOutcome>();

  async charge(request: ChargeRequest): Promise<ChargeOutcome> {
    const recorded = this.charges.get(request.reference);
    if (recorded) return recorded;
    const outcome = this.answer(request);
    this.charges.set(request.reference, outcome);
    return outcome;
  }

  async lookup(reference: string): Promise<ChargeOutcome | null> {
    return this.charges.get(reference) ?? null;
  }

  async hasPaymentMethod(paymentToken: string): Promise<boolean> {
    return SANDBOX_CARDS.has(paymentToken);
  }

  private answer(request: ChargeRequest): ChargeOutcome {
    const behaviour = SANDBOX_CARDS.get(request.paymentToken) ?? UNKNOWN_TOKEN;
    switch (behaviour.result) {
      case 'approve':
        return {
          outcome: 'approved',
          payment_id: `pay_sandbox_${createHash('sha256').update(request.reference).digest('hex').slice(0, 24)}`,
        };
      case 'decline':
        return { outcome: 'declined', decline_code: behaviour.decline_code, message: behaviour.message };
      case 'fail':
        throw new PaymentProviderError(behaviour.message);
    }
  }
}
