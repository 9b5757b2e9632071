import { expect } from 'chai';
import { TestClock } from '../../../core/clock.js';
import {
  PaymentProviderError,
  type ChargeOutcome,
  type ChargeRequest,
  type PaymentProvider,
} from '../../../core/payments/payment-provider.js';
import { SandboxPaymentProvider } from '../../../core/payments/sandbox-payment-provider.js';
import { purchaseReference } from '../../../core/billing/credit-purchases.js';
import { PurchaseConflict } from '../../../core/accounts/purchase-intents.js';
import { CLAIM_LEASE_MS, idempotencyDecider, idempotencyStream } from '../../../core/idempotency/idempotency.js';
import { ProblemError } from '../../../core/problems.js';
import { requestFingerprint } from '../../../api/middleware/idempotency.js';
import { openAccount, request, type TestAccount } from '../../support/app.js';
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

  hasPaymentMethod(paymentToken: string): Promise<boolean> {
    return this.provider.hasPaymentMethod(paymentToken);
  }
}

describe('a credit purchase retried under the same Idempotency-Key', () => {
  let clock: TestClock;
  let payments: LosesFirstAnswer;
  let instance: BillingInstance;
  let account: TestAccount;

  beforeEach(async () => {
    clock = new TestClock('2026-05-10T12:00:00.000Z');
    payments = new LosesFirstAnswer(new SandboxPaymentProvider());
    instance = await startBillingInstance({ clock, payments });
    account = await openAccount(instance, { tier: 'developer', credits: 100 });
  });
  afterEach(async () => {
    await instance?.close();
  });

  const buy = (pack: string, key = 'buy-1') =>
    request(instance, 'POST', '/v1/billing/credits', {
      key: account.live,
      headers: { 'Idempotency-Key': key },
      body: { pack, payment_token: 'tok_visa' },
    });
  const purchases = async () =>
    (await request(instance, 'GET', '/v1/billing/history', { key: account.live })).body.data.filter(
      (line: { type: string }) => line.type === 'purchase',
    );

  it('after a 502 is the same purchase: charged once, its credits granted once, also after the billing run settles it', async () => {
    const first = await buy('small');
    expect(first.status).to.equal(502);
    const retry = await buy('small');
    expect(retry.status).to.equal(201);
    expect(retry.body).to.include({ id: first.body.purchase_id, credits_available: 10_100 });
    expect([...payments.charged]).to.deep.equal([first.body.purchase_id]);

    clock.advance({ minutes: 3 });
    await instance.services.billing.runDue([account.accountId]);
    expect((await request(instance, 'GET', '/v1/billing/credits', { key: account.live })).body).to.include({
      credits_available: 10_100,
    });
    expect(await purchases()).to.have.length(1);
  });

  it('with another pack after a 502 is refused (422); the purchase completes as it was started and charged', async () => {
    const first = await buy('small');
    expect(first.status).to.equal(502);
    const swapped = await buy('large');
    expect(swapped.status).to.equal(422);
    expect(swapped.body.type).to.match(/\/idempotency-key-reused$/);
    // Behind the key, the service itself never books another pack for a started purchase.
    const original = { key: 'buy-1', originalRequestId: first.headers.get('request-id')! };
    const conflict = await instance.services.billing
      .purchase({
        accountId: account.accountId,
        mode: 'live',
        pack: 'large',
        paymentToken: 'tok_visa',
        idempotency: original,
      })
      .then(
        () => null,
        (error: unknown) => error,
      );
    expect(conflict).to.be.instanceOf(ProblemError).and.have.property('type', PurchaseConflict);
    expect((await request(instance, 'GET', '/v1/billing/credits', { key: account.live })).body).to.include({
      credits_available: 100,
    });

    const retry = await buy('small');
    expect(retry.status).to.equal(201);
    expect(retry.body).to.include({
      id: first.body.purchase_id,
      pack: 'small',
      credits: 10_000,
      amount: 1000,
      credits_available: 10_100,
    });
    expect([...payments.charged]).to.deep.equal([first.body.purchase_id]);
    expect(await purchases()).to.have.length(1);
    expect((await purchases())[0]).to.include({ amount: 1000, credits: 10_000 });
  });

  it('that takes over the claim of a dead instance is the purchase the dead instance started: charged once', async () => {
    const body = { pack: 'small', payment_token: 'tok_visa' };
    const dead = { key: 'buy-1', originalRequestId: 'req_of_a_dead_instance' };
    // What an instance that died mid-purchase leaves: the key's claim, and a purchase charged but not recorded.
    await instance.services.commands.handle(
      idempotencyDecider,
      idempotencyStream(account.accountId, 'live', dead.key),
      {
        type: 'ClaimKey',
        accountId: account.accountId,
        mode: 'live',
        fingerprint: requestFingerprint('POST', '/v1/billing/credits', {}, body),
        requestId: dead.originalRequestId,
        at: clock.now().toISOString(),
      },
    );
    await instance.services.billing
      .purchase({
        accountId: account.accountId,
        mode: 'live',
        pack: 'small',
        paymentToken: 'tok_visa',
        idempotency: dead,
      })
      .catch(() => {});

    expect((await buy('small')).status).to.equal(409);
    clock.advance({ ms: CLAIM_LEASE_MS + 1 });
    const retry = await buy('small');
    expect(retry.status).to.equal(201);
    const reference = purchaseReference({ accountId: account.accountId, mode: 'live', idempotency: dead });
    expect(retry.body).to.include({ id: reference, credits_available: 10_100 });
    expect([...payments.charged]).to.deep.equal([reference]);
  });

  it('used again after its retention (24 h) is a new purchase, charged and credited as such', async () => {
    expect((await buy('small', 'top-up')).status).to.equal(502); // the provider's first answer is lost
    const first = await buy('small', 'top-up');
    expect(first.status).to.equal(201);
    const replay = await buy('small', 'top-up');
    expect(replay.headers.get('idempotent-replayed')).to.equal('true');

    clock.advance({ hours: 25 });
    const later = await buy('small', 'top-up');
    expect(later.status).to.equal(201);
    expect(later.headers.get('idempotent-replayed')).to.equal(null);
    expect(later.body.id).to.not.equal(first.body.id);
    expect(later.body).to.include({ credits_available: 20_100 });
    expect([...payments.charged]).to.deep.equal([first.body.id, later.body.id]);
    expect(await purchases()).to.have.length(2);
  });
});
