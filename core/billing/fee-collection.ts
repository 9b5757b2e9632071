import type { CreditsService } from '../accounts/credits-service.js';
import { PaymentProviderError, type ChargeOutcome, type PaymentProvider } from '../payments/payment-provider.js';

/** What became of one fee's charge: the provider's answer, or `unavailable` (left due for the next run). */
export type FeeCollection = ChargeOutcome | { outcome: 'unavailable'; message: string };

/**
 * Charges the subscription fees that are due to the payment method on file. The fee is recorded (due)
 * before it is charged, and each attempt has its own idempotency key at the provider
 * (`<account>:<fee>:<attempt>`), so a run that died between the charge and its record charges the same
 * key again on the next run and the provider answers the first outcome: a fee is never paid twice.
 */
export async function collectFees(
  credits: CreditsService,
  payments: PaymentProvider,
  accountId: string,
): Promise<{ collected: Map<string, FeeCollection>; position: number }> {
  const { subscription } = await credits.account(accountId);
  const collected = new Map<string, FeeCollection>();
  let position = 0;
  const method = subscription.paymentMethod;
  if (method === null) return { collected, position };
  for (const fee of subscription.fees.filter((candidate) => candidate.status === 'due')) {
    const attempt = fee.attempts + 1;
    let charge: ChargeOutcome;
    try {
      charge = await payments.charge({
        reference: `${accountId}:${fee.reference}:${attempt}`,
        amount: fee.amount,
        currency: fee.currency,
        paymentToken: method,
        description: `finsynth subscription (${fee.reason})`,
      });
    } catch (error) {
      if (!(error instanceof PaymentProviderError)) throw error;
      collected.set(fee.reference, { outcome: 'unavailable', message: error.message });
      continue;
    }
    const result =
      charge.outcome === 'approved'
        ? await credits.run(accountId, {
            type: 'RecordFeePaid',
            reference: fee.reference,
            amount: fee.amount,
            currency: fee.currency,
            paymentId: charge.payment_id,
          })
        : await credits.run(accountId, {
            type: 'RecordFeeDeclined',
            reference: fee.reference,
            attempt,
            declineCode: charge.decline_code,
            reason: charge.message,
          });
    collected.set(fee.reference, charge);
    position = Math.max(position, result.position);
  }
  return { collected, position };
}
