import { expect } from 'chai';
import { TestClock } from '../../core/clock.js';
import { PaymentProviderError, type ChargeOutcome, type ChargeRequest, type PaymentProvider } from '../../core/billing/payment-provider.js';
import { SandboxPaymentProvider } from '../../core/billing/sandbox-payment-provider.js';
import { openAccount, request } from '../support/app.js';
import { startBillingInstance, type BillingInstance } from './billing-instance.js';

/** The provider charges, then its answer is lost once (a timeout): whether it charged is unknown to the service. */
class LosesFirstAnswer implements PaymentProvider {
  readonly name = 'loses-first-answer';
  readonly charged = new Set<string>();
  private lost = false;
  constructor(private readonly provider: SandboxPaymentProvider) {}

  async charge(request: ChargeRequest): Promise<ChargeOutcome> {
    const outcome = await this.provider.charge(request);
    this.charged.add(request.reference);
    if (this.lost) return outcome;
    this.lost = true;
    throw new PaymentProviderError('The payment provider timed out.');
  }

  lookup(reference: string): Promise<ChargeOutcome | null> {
    return this.provider.lookup(reference);
  }
}

describe('a credit purchase retried under the same Idempotency-Key after a 502', () => {
  const clock = new TestClock('2026-05-10T12:00:00.000Z');
  const payments = new LosesFirstAnswer(new SandboxPaymentProvider());
  let instance: BillingInstance;

  after(async () => {
    await instance?.close();
  });

  it('is the same purchase: charged once, its credits granted once, also after the billing run settles it', async () => {
    instance = await startBillingInstance({ clock, payments });
    const account = await openAccount(instance, { tier: 'developer', credits: 100 });
    const buy = () => request(instance, 'POST', '/v1/billing/credits', { key: account.live, headers: { 'Idempotency-Key': 'buy-small-1' }, body: { pack: 'small', payment_token: 'tok_visa' } });

    const first = await buy();
    expect(first.status).to.equal(502);
    const retry = await buy();
    expect(retry.status).to.equal(201);
    expect(retry.body).to.include({ id: first.body.purchase_id, credits_available: 10_100 });
    expect([...payments.charged]).to.deep.equal([first.body.purchase_id]);

    clock.advance({ minutes: 3 });
    await instance.services.billing.runDue([account.accountId]);
    expect((await request(instance, 'GET', '/v1/billing/credits', { key: account.live })).body).to.include({ credits_available: 10_100 });
    const history = await request(instance, 'GET', '/v1/billing/history', { key: account.live });
    expect(history.body.data.filter((line: { type: string }) => line.type === 'purchase')).to.have.length(1);
  });
});
