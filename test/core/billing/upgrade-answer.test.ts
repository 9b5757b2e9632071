import { expect } from 'chai';
import { TestClock } from '../../../core/clock.js';
import { accountStream } from '../../../core/accounts/account.js';
import type { Billing } from '../../../core/accounts/profile.js';
import { openAccount, request, type TestAccount } from '../../support/app.js';
import { startBillingInstance, type BillingInstance } from './billing-instance.js';

/**
 * The answer to an upgrade says what happened to the account: a card account's fee is charged and its
 * credits granted once paid; an invoiced account's fee goes on its invoice (`charged: false`) and its
 * credits are granted with the upgrade, so the answer must not call that fee unpaid.
 */
describe('the answer to an upgrade, by how the account is billed', () => {
  const clock = new TestClock('2026-03-01T00:00:00.000Z');
  let app: BillingInstance;

  before(async () => {
    app = await startBillingInstance({ clock });
  });
  after(() => app.close());

  const available = async (account: TestAccount) =>
    (await request(app, 'GET', '/v1/billing/credits', { key: account.live })).body.credits_available as number;
  const storedUpgrade = async (account: TestAccount) =>
    (await app.services.store.readStream(accountStream(account.accountId))).find(
      (event) => event.type === 'SubscriptionUpgraded',
    )?.data;

  /** Opens a developer account billed as given and upgrades it to team halfway through March. */
  async function upgradeHalfway(billing: Billing, paymentToken?: string) {
    clock.set('2026-03-01T00:00:00.000Z');
    const account = await openAccount(app, { tier: 'developer', billing });
    if (paymentToken)
      await request(app, 'PUT', '/v1/billing/payment-method', {
        key: account.live,
        body: { payment_token: paymentToken },
      });
    const before = await available(account);
    clock.set('2026-03-16T12:00:00.000Z');
    const response = await request(app, 'POST', '/v1/billing/subscription', {
      key: account.live,
      body: { tier: 'team' },
    });
    expect(response.status, JSON.stringify(response.body)).to.equal(200);
    return { account, response, rise: (await available(account)) - before };
  }

  it('a card account: the fee is charged, and the credits granted once paid', async () => {
    const { account, response, rise } = await upgradeHalfway('card', 'tok_visa');
    expect(await storedUpgrade(account)).to.include({ charged: true, credits: 125_000, amount: 10_000 });
    expect(response.body).to.include({ change: 'upgraded', credits_granted: 125_000, amount: 10_000, currency: 'EUR' });
    expect(response.body.payment).to.include({ status: 'paid', decline_code: null });
    expect(response.body.message).to.equal(
      'Upgraded to team now; 125000 credits granted for the rest of the period, which ends 2026-04-01T00:00:00.000Z.',
    );
    expect(rise).to.equal(125_000);
  });

  it('an invoiced account: the credits are granted with the upgrade, and the answer says the fee goes on the invoice', async () => {
    const { account, response, rise } = await upgradeHalfway('invoice');
    expect(await storedUpgrade(account)).to.include({ charged: false, credits: 125_000, amount: 10_000 });
    expect(response.body).to.include({
      change: 'upgraded',
      credits_granted: 125_000,
      amount: 10_000,
      currency: 'EUR',
      payment: null,
    });
    expect(response.body.message).to.equal(
      'Upgraded to team now; 125000 credits granted for the rest of the period, which ends 2026-04-01T00:00:00.000Z. ' +
        "Its prorated fee, 10000 (minor units of EUR), goes on the account's invoice: nothing is charged here.",
    );
    expect(response.body.subscription).to.deep.include({
      tier: 'team',
      status: 'active',
      payment_method: null,
      unpaid: { amount: 0, currency: 'EUR' },
    });
    expect(rise).to.equal(response.body.credits_granted);
  });
});
