import { expect } from 'chai';
import { TestClock } from '../../core/clock.js';
import { BILLING_PROJECTION, accountsDueForRenewal, type BillingModel } from '../../projections/billing.js';
import { openAccount, request, startTestApp, type TestAccount, type TestApp } from '../support/app.js';

describe('billing over HTTP', () => {
  const clock = new TestClock('2026-03-01T00:00:00.000Z');
  let app: TestApp;
  let account: TestAccount;

  before(async () => {
    app = await startTestApp({ clock });
    account = await openAccount(app, { tier: 'developer' });
  });
  after(() => app.close());

  const credits = async () => (await request(app, 'GET', '/v1/billing/credits', { key: account.live })).body;

  it('answers the balance, the reserved credits and the packs for sale', async () => {
    const response = await request(app, 'GET', '/v1/billing/credits', { key: account.live });
    expect(response.status).to.equal(200);
    expect(response.body).to.include({ credits_available: 50_000, credits_reserved: 0 });
    expect(response.body.credit_packs).to.deep.include({ pack: 'small', credits: 10_000, price: { amount: 1000, currency: 'EUR' } });
  });

  it('buys a pack with an approving card token, and charges once for one Idempotency-Key', async () => {
    const buy = () => request(app, 'POST', '/v1/billing/credits', { key: account.live, body: { pack: 'small', payment_token: 'tok_visa' }, headers: { 'Idempotency-Key': 'buy-1' } });
    const first = await buy();
    expect(first.status).to.equal(201);
    expect(first.body).to.include({ pack: 'small', credits: 10_000, amount: 1000, currency: 'EUR', credits_available: 60_000 });
    expect(first.body.id).to.match(/^pur_/);
    const again = await buy();
    expect(again.status).to.equal(201);
    expect(again.headers.get('idempotent-replayed')).to.equal('true');
    expect(again.body.id).to.equal(first.body.id);
    expect(await credits()).to.include({ credits_available: 60_000 });
  });

  it('a declined card grants nothing and says why; the decline is in the history', async () => {
    const response = await request(app, 'POST', '/v1/billing/credits', { key: account.live, body: { pack: 'medium', payment_token: 'tok_chargeDeclinedInsufficientFunds' } });
    expect(response.status).to.equal(402);
    expect(response.headers.get('content-type')).to.match(/application\/problem\+json/);
    expect(response.body).to.include({ title: 'Payment Declined', decline_code: 'insufficient_funds', instance: '/v1/billing/credits' });
    expect(response.body.type).to.match(/\/payment-declined$/);
    expect(response.body.detail).to.equal('The card has insufficient funds. No credit was granted.');
    expect(await credits()).to.include({ credits_available: 60_000 });
    const history = await request(app, 'GET', '/v1/billing/history', { key: account.live });
    expect(history.body.data[0]).to.include({ type: 'purchase_declined', amount: 0, currency: 'EUR', credits: 0 });
  });

  it('a failing provider records nothing and answers 502; an unknown pack is 400; a test key cannot buy', async () => {
    const failed = await request(app, 'POST', '/v1/billing/credits', { key: account.live, body: { pack: 'small', payment_token: 'tok_processingError' } });
    expect(failed.status).to.equal(502);
    expect(failed.body.type).to.match(/\/payment-provider-unavailable$/);
    const unknown = await request(app, 'POST', '/v1/billing/credits', { key: account.live, body: { pack: 'huge', payment_token: 'tok_visa' } });
    expect(unknown.status).to.equal(400);
    expect(unknown.body.detail).to.equal('there is no credit pack "huge"; the packs are small, medium, large');
    const sandbox = await request(app, 'POST', '/v1/billing/credits', { key: account.test, body: { pack: 'small', payment_token: 'tok_visa' } });
    expect(sandbox.status).to.equal(403);
    expect(sandbox.body.type).to.match(/\/live-key-required$/);
    const malformed = await request(app, 'POST', '/v1/billing/credits', { key: account.live, body: { pack: 'small' } });
    expect(malformed.status).to.equal(400);
    expect(await credits()).to.include({ credits_available: 60_000 });
    const history = await request(app, 'GET', '/v1/billing/history', { key: account.live });
    expect(history.body.data.map((line: { type: string }) => line.type)).to.deep.equal(['purchase_declined', 'purchase']);
  });

  it('upgrades now with the allowance difference prorated for the rest of the period, and says so', async () => {
    clock.set('2026-03-16T12:00:00.000Z'); // half of March remains
    const response = await request(app, 'POST', '/v1/billing/subscription', { key: account.live, body: { tier: 'team' } });
    expect(response.status).to.equal(200);
    expect(response.body).to.include({ change: 'upgraded', effective_at: '2026-03-16T12:00:00.000Z', credits_granted: 125_000, amount: 10_000, currency: 'EUR' });
    expect(response.body.message).to.equal('Upgraded to team now; 125000 credits granted for the rest of the period, which ends 2026-04-01T00:00:00.000Z.');
    expect(response.body.subscription).to.include({ tier: 'team', current_period_end: '2026-04-01T00:00:00.000Z', pending_change: null, included_credits: 300_000 });
    expect(await credits()).to.include({ credits_available: 185_000 });
  });

  it('downgrades at the end of the period, says so, and the renewal run applies it and grants the allowance', async () => {
    const response = await request(app, 'POST', '/v1/billing/subscription', { key: account.live, body: { tier: 'free' } });
    expect(response.body).to.include({ change: 'downgrade_scheduled', effective_at: '2026-04-01T00:00:00.000Z', credits_granted: 0, amount: 0 });
    expect(response.body.subscription).to.include({ tier: 'team' });
    expect(response.body.subscription.pending_change).to.deep.equal({ tier: 'free', effective_at: '2026-04-01T00:00:00.000Z' });

    clock.set('2026-04-01T00:00:00.000Z');
    await app.services.projections.waitFor(await app.services.store.headPosition());
    const due = accountsDueForRenewal(app.services.projections.state<BillingModel>(BILLING_PROJECTION), clock.now());
    expect(due).to.deep.equal([account.accountId]);
    expect(await app.services.billing.renewDue(due)).to.include({ renewals: 1 });
    expect(await app.services.billing.renewDue(due)).to.include({ renewals: 0 });

    const subscription = await request(app, 'GET', '/v1/billing/subscription', { key: account.live });
    expect(subscription.body).to.include({ tier: 'free', current_period_start: '2026-04-01T00:00:00.000Z', current_period_end: '2026-05-01T00:00:00.000Z', pending_change: null });
    expect(await credits()).to.include({ credits_available: 186_000 });
    const history = await request(app, 'GET', '/v1/billing/history', { key: account.live, headers: {} });
    expect(history.body.data.map((line: { type: string }) => line.type)).to.deep.equal(['renewal', 'downgrade_scheduled', 'upgrade', 'purchase_declined', 'purchase']);
    expect(history.body.data[0]).to.include({ tier: 'free', amount: 0, credits: 1000, at: '2026-04-01T00:00:00.000Z' });
    expect(history.body.data[2]).to.include({ tier: 'team', amount: 10_000, currency: 'EUR', credits: 125_000 });
  });

  it('pages the history with a cursor', async () => {
    const first = await request(app, 'GET', '/v1/billing/history?limit=2', { key: account.live });
    expect(first.body.data).to.have.length(2);
    expect(first.body.has_more).to.equal(true);
    const second = await request(app, 'GET', `/v1/billing/history?limit=10&cursor=${first.body.next_cursor}`, { key: account.live });
    expect(second.body.data.map((line: { type: string }) => line.type)).to.deep.equal(['upgrade', 'purchase_declined', 'purchase']);
    expect(second.body).to.include({ has_more: false, next_cursor: null });
  });
});
