import { expect } from 'chai';
import { TestClock } from '../../../core/clock.js';
import {
  BILLING_PROJECTION,
  accountsWithBillingWork,
  type BillingModel,
} from '../../../projections/billing/billing.js';
import { openAccount, request, type TestAccount } from '../../support/app.js';
import { startBillingInstance, type BillingInstance } from './billing-instance.js';

describe('billing over HTTP', () => {
  const clock = new TestClock('2026-03-01T00:00:00.000Z');
  let app: BillingInstance;
  let account: TestAccount;

  before(async () => {
    app = await startBillingInstance({ clock });
    account = await openAccount(app, { tier: 'developer' });
  });
  after(() => app.close());

  const credits = async () => (await request(app, 'GET', '/v1/billing/credits', { key: account.live })).body;
  const historyTypes = async () =>
    (await request(app, 'GET', '/v1/billing/history', { key: account.live })).body.data.map(
      (line: { type: string }) => line.type,
    );

  it('answers the balance, the reserved credits and the packs for sale', async () => {
    const response = await request(app, 'GET', '/v1/billing/credits', { key: account.live });
    expect(response.status).to.equal(200);
    expect(response.body).to.include({ credits_available: 50_000, credits_reserved: 0 });
    expect(response.body.credit_packs).to.deep.include({
      pack: 'small',
      credits: 10_000,
      price: { amount: 1000, currency: 'EUR' },
    });
  });

  it('buys a pack with an approving card token, and charges once for one Idempotency-Key', async () => {
    const buy = () =>
      request(app, 'POST', '/v1/billing/credits', {
        key: account.live,
        body: { pack: 'small', payment_token: 'tok_visa' },
        headers: { 'Idempotency-Key': 'buy-1' },
      });
    const first = await buy();
    expect(first.status).to.equal(201);
    expect(first.body).to.include({
      pack: 'small',
      credits: 10_000,
      amount: 1000,
      currency: 'EUR',
      credits_available: 60_000,
    });
    expect(first.body.id).to.match(/^pur_/);
    const again = await buy();
    expect(again.status).to.equal(201);
    expect(again.headers.get('idempotent-replayed')).to.equal('true');
    expect(again.body.id).to.equal(first.body.id);
    expect(await credits()).to.include({ credits_available: 60_000 });
  });

  it('a declined card grants nothing and says why; the decline is in the history', async () => {
    const response = await request(app, 'POST', '/v1/billing/credits', {
      key: account.live,
      body: { pack: 'medium', payment_token: 'tok_chargeDeclinedInsufficientFunds' },
    });
    expect(response.status).to.equal(402);
    expect(response.headers.get('content-type')).to.match(/application\/problem\+json/);
    expect(response.body).to.include({
      title: 'Payment Required',
      decline_code: 'insufficient_funds',
      instance: '/v1/billing/credits',
    });
    expect(response.body.type).to.match(/\/payment-declined$/);
    expect(response.body.detail).to.equal('The card has insufficient funds. No credit was granted.');
    expect(await credits()).to.include({ credits_available: 60_000 });
    const history = await request(app, 'GET', '/v1/billing/history', { key: account.live });
    // The price tried, as the decline recorded it; nothing was charged nor granted.
    expect(history.body.data[0]).to.include({ type: 'purchase_declined', amount: 9000, currency: 'EUR', credits: 0 });
  });

  it('a failing provider answers 502 and leaves the purchase open; an unknown pack is 400; a test key cannot buy', async () => {
    const failed = await request(app, 'POST', '/v1/billing/credits', {
      key: account.live,
      body: { pack: 'small', payment_token: 'tok_processingError' },
    });
    expect(failed.status).to.equal(502);
    expect(failed.body.type).to.match(/\/payment-provider-unavailable$/);
    expect(failed.body.purchase_id).to.match(/^pur_/);
    const unknown = await request(app, 'POST', '/v1/billing/credits', {
      key: account.live,
      body: { pack: 'huge', payment_token: 'tok_visa' },
    });
    expect(unknown.status).to.equal(400);
    expect(unknown.body.detail).to.equal('there is no credit pack "huge"; the packs are small, medium, large');
    const sandbox = await request(app, 'POST', '/v1/billing/credits', {
      key: account.test,
      body: { pack: 'small', payment_token: 'tok_visa' },
    });
    expect(sandbox.status).to.equal(403);
    expect(sandbox.body.type).to.match(/\/live-key-required$/);
    const malformed = await request(app, 'POST', '/v1/billing/credits', { key: account.live, body: { pack: 'small' } });
    expect(malformed.status).to.equal(400);
    expect(await credits()).to.include({ credits_available: 60_000 });
    expect(await historyTypes()).to.deep.equal(['purchase_declined', 'purchase']);
  });

  it('a pack or a payment token named like a member of every object (__proto__, constructor, toString) is unknown, not a 500', async () => {
    for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
      const purchase = await request(app, 'POST', '/v1/billing/credits', {
        key: account.live,
        body: { pack: name, payment_token: 'tok_visa' },
      });
      expect(purchase.status, name).to.equal(400);
      expect(purchase.body.type).to.match(/\/unknown-credit-pack$/);
      expect(purchase.body.detail).to.equal(`there is no credit pack "${name}"; the packs are small, medium, large`);
      const method = await request(app, 'PUT', '/v1/billing/payment-method', {
        key: account.live,
        body: { payment_token: name },
      });
      expect(method.status, name).to.equal(400);
      expect(method.body.type).to.match(/\/unknown-payment-method$/);
      const upgrade = await request(app, 'POST', '/v1/billing/subscription', {
        key: account.live,
        body: { tier: 'team', payment_token: name },
      });
      expect(upgrade.status, name).to.equal(400);
      expect(upgrade.body.type).to.match(/\/unknown-payment-method$/);
    }
    // Nothing was kept: no payment method on file, no tier change, no credit.
    expect((await request(app, 'GET', '/v1/billing/subscription', { key: account.live })).body).to.include({
      tier: 'developer',
      payment_method: null,
    });
    expect(await credits()).to.include({ credits_available: 60_000 });
    expect(await historyTypes()).to.deep.equal(['purchase_declined', 'purchase']);
  });

  it('bills the first period; with no payment method the subscription is past due, and a paid upgrade is refused', async () => {
    const upgrade = await request(app, 'POST', '/v1/billing/subscription', {
      key: account.live,
      body: { tier: 'team' },
    });
    expect(upgrade.status).to.equal(402);
    expect(upgrade.body.type).to.match(/\/payment-method-required$/);
    const subscription = await request(app, 'GET', '/v1/billing/subscription', { key: account.live });
    expect(subscription.body).to.deep.include({
      tier: 'developer',
      status: 'past_due',
      payment_method: null,
      unpaid: { amount: 4900, currency: 'EUR' },
    });
    const history = await request(app, 'GET', '/v1/billing/history', { key: account.live });
    expect(history.body.data[0]).to.include({
      type: 'renewal',
      amount: 4900,
      currency: 'EUR',
      credits: 0,
      reference: 'fee:2026-03-01T00:00:00.000Z',
      description: 'developer subscription, first period',
    });
  });

  it('a payment method set pays what is due', async () => {
    const response = await request(app, 'PUT', '/v1/billing/payment-method', {
      key: account.live,
      body: { payment_token: 'tok_visa' },
    });
    expect(response.status).to.equal(200);
    expect(response.body).to.deep.include({
      status: 'active',
      payment_method: 'tok_visa',
      unpaid: { amount: 0, currency: 'EUR' },
    });
    const history = await request(app, 'GET', '/v1/billing/history', { key: account.live });
    expect(history.body.data[0]).to.include({
      type: 'fee_paid',
      amount: 4900,
      currency: 'EUR',
      reference: 'fee:2026-03-01T00:00:00.000Z',
    });
    expect(history.body.data[1]).to.include({ type: 'payment_method_set' });
  });

  it('upgrades now, charging the price difference prorated for the rest of the period and granting the allowance difference, and says so', async () => {
    clock.set('2026-03-16T12:00:00.000Z'); // half of March remains
    const response = await request(app, 'POST', '/v1/billing/subscription', {
      key: account.live,
      body: { tier: 'team' },
    });
    expect(response.status).to.equal(200);
    expect(response.body).to.include({
      change: 'upgraded',
      effective_at: '2026-03-16T12:00:00.000Z',
      credits_granted: 125_000,
      amount: 10_000,
      currency: 'EUR',
    });
    expect(response.body.payment).to.include({ status: 'paid', decline_code: null });
    expect(response.body.message).to.equal(
      'Upgraded to team now; 125000 credits granted for the rest of the period, which ends 2026-04-01T00:00:00.000Z.',
    );
    expect(response.body.subscription).to.include({
      tier: 'team',
      status: 'active',
      current_period_end: '2026-04-01T00:00:00.000Z',
      pending_change: null,
      included_credits: 300_000,
    });
    expect(await credits()).to.include({ credits_available: 185_000 });
    const history = await request(app, 'GET', '/v1/billing/history', { key: account.live });
    expect(history.body.data[0]).to.include({
      type: 'fee_paid',
      amount: 10_000,
      currency: 'EUR',
      reference: 'upgrade:2026-03-01T00:00:00.000Z:team',
    });
    expect(history.body.data[1]).to.include({
      type: 'upgrade',
      tier: 'team',
      amount: 10_000,
      currency: 'EUR',
      credits: 125_000,
    });
  });

  it('downgrades at the end of the period, says so; the billing run applies it, grants the allowance and settles the open purchase', async () => {
    const response = await request(app, 'POST', '/v1/billing/subscription', {
      key: account.live,
      body: { tier: 'free' },
    });
    expect(response.body).to.include({
      change: 'downgrade_scheduled',
      effective_at: '2026-04-01T00:00:00.000Z',
      credits_granted: 0,
      amount: 0,
      payment: null,
    });
    expect(response.body.subscription).to.include({ tier: 'team' });
    expect(response.body.subscription.pending_change).to.deep.equal({
      tier: 'free',
      effective_at: '2026-04-01T00:00:00.000Z',
    });

    clock.set('2026-04-01T00:00:00.000Z');
    await app.services.projections.waitFor(await app.services.store.headPosition());
    const due = accountsWithBillingWork(app.services.projections.state<BillingModel>(BILLING_PROJECTION), clock.now());
    expect(due).to.deep.equal([account.accountId]);
    // The purchase the failing provider left open is unknown to the provider: nothing was charged.
    expect(await app.services.billing.runDue(due)).to.include({ renewals: 1, recovered: 1 });
    expect(await app.services.billing.runDue(due)).to.include({ renewals: 0, recovered: 0 });

    const subscription = await request(app, 'GET', '/v1/billing/subscription', { key: account.live });
    expect(subscription.body).to.include({
      tier: 'free',
      current_period_start: '2026-04-01T00:00:00.000Z',
      current_period_end: '2026-05-01T00:00:00.000Z',
      pending_change: null,
    });
    expect(await credits()).to.include({ credits_available: 186_000 });
    expect(await historyTypes()).to.deep.equal([
      'purchase_abandoned',
      'renewal',
      'downgrade_scheduled',
      'fee_paid',
      'upgrade',
      'fee_paid',
      'payment_method_set',
      'renewal',
      'purchase_declined',
      'purchase',
    ]);
    const history = await request(app, 'GET', '/v1/billing/history', { key: account.live });
    expect(history.body.data[0]).to.include({ type: 'purchase_abandoned', amount: 1000, currency: 'EUR', credits: 0 });
    expect(history.body.data[1]).to.include({ tier: 'free', amount: 0, credits: 1000, at: '2026-04-01T00:00:00.000Z' });
    expect(history.body.data[2]).to.include({ type: 'downgrade_scheduled', tier: 'free', amount: 0, currency: 'EUR' });
  });

  it('pages the history with a cursor', async () => {
    const first = await request(app, 'GET', '/v1/billing/history?limit=2', { key: account.live });
    expect(first.body.data).to.have.length(2);
    expect(first.body.has_more).to.equal(true);
    const second = await request(app, 'GET', `/v1/billing/history?limit=10&cursor=${first.body.next_cursor}`, {
      key: account.live,
    });
    expect(second.body.data.map((line: { type: string }) => line.type)).to.deep.equal([
      'downgrade_scheduled',
      'fee_paid',
      'upgrade',
      'fee_paid',
      'payment_method_set',
      'renewal',
      'purchase_declined',
      'purchase',
    ]);
    expect(second.body).to.include({ has_more: false, next_cursor: null });
  });
});

describe('subscription fees over HTTP', () => {
  const clock = new TestClock('2026-06-01T00:00:00.000Z');
  let app: BillingInstance;
  let account: TestAccount;

  before(async () => {
    app = await startBillingInstance({ clock });
    account = await openAccount(app, { tier: 'developer', credits: 0 });
  });
  after(() => app.close());

  const subscription = async () => (await request(app, 'GET', '/v1/billing/subscription', { key: account.live })).body;
  const runBilling = async () => {
    await app.services.projections.waitFor(await app.services.store.headPosition());
    return app.services.billing.runDue(
      accountsWithBillingWork(app.services.projections.state<BillingModel>(BILLING_PROJECTION), clock.now()),
    );
  };

  it('a declined renewal leaves the subscription past due without its allowance, until a new payment method pays it', async () => {
    await request(app, 'PUT', '/v1/billing/payment-method', { key: account.live, body: { payment_token: 'tok_visa' } });
    await runBilling(); // the first period, paid
    await request(app, 'PUT', '/v1/billing/payment-method', {
      key: account.live,
      body: { payment_token: 'tok_chargeDeclinedInsufficientFunds' },
    });
    clock.set('2026-07-01T00:00:00.000Z');
    expect(await runBilling()).to.include({ renewals: 1 });
    expect(await subscription()).to.deep.include({
      tier: 'developer',
      status: 'past_due',
      unpaid: { amount: 4900, currency: 'EUR' },
    });
    expect((await request(app, 'GET', '/v1/billing/credits', { key: account.live })).body).to.include({
      credits_available: 0,
    });
    const declined = (await request(app, 'GET', '/v1/billing/history', { key: account.live })).body.data[0];
    expect(declined).to.include({
      type: 'fee_declined',
      amount: 4900,
      currency: 'EUR',
      reference: 'fee:2026-07-01T00:00:00.000Z',
    });
    expect(declined.description).to.equal(
      'Subscription fee fee:2026-07-01T00:00:00.000Z of 4900 declined (attempt 1): The card has insufficient funds.',
    );

    // The run does not charge a declined fee again: only a new payment method does.
    await runBilling();
    expect((await request(app, 'GET', '/v1/billing/history', { key: account.live })).body.data[0]).to.include({
      type: 'fee_declined',
    });
    const fixed = await request(app, 'PUT', '/v1/billing/payment-method', {
      key: account.live,
      body: { payment_token: 'tok_mastercard' },
    });
    expect(fixed.body).to.deep.include({ status: 'active', unpaid: { amount: 0, currency: 'EUR' } });
    expect((await request(app, 'GET', '/v1/billing/credits', { key: account.live })).body).to.include({
      credits_available: 50_000,
    });
  });

  it('a period that ends with its fee unpaid renews on free, and the history says why', async () => {
    await request(app, 'PUT', '/v1/billing/payment-method', {
      key: account.live,
      body: { payment_token: 'tok_chargeDeclinedExpiredCard' },
    });
    clock.set('2026-08-01T00:00:00.000Z');
    await runBilling(); // August's fee: declined
    expect(await subscription()).to.include({ status: 'past_due' });
    clock.set('2026-09-01T00:00:00.000Z');
    await runBilling();
    expect(await subscription()).to.deep.include({
      tier: 'free',
      status: 'active',
      unpaid: { amount: 0, currency: 'EUR' },
    });
    expect((await request(app, 'GET', '/v1/billing/credits', { key: account.live })).body).to.include({
      credits_available: 51_000,
    });
    const [renewal, lapsed] = (await request(app, 'GET', '/v1/billing/history', { key: account.live })).body.data;
    expect(renewal).to.include({ type: 'renewal', tier: 'free', amount: 0, credits: 1000 });
    expect(lapsed).to.include({
      type: 'lapsed',
      tier: 'free',
      amount: 0,
      currency: 'EUR',
      description: '4900 EUR (minor units) unpaid at the end of the period: developer lapsed to free',
    });
    const audit = await request(app, 'GET', '/v1/audit/credits', { key: account.live });
    expect(audit.body.verdict).to.include({ holds: true });
  });
});
