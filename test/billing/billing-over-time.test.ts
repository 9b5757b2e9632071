import { expect } from 'chai';
import { TestClock } from '../../core/clock.js';
import { BILLING_PROJECTION, accountsWithBillingWork, type BillingModel } from '../../projections/billing.js';
import { openAccount, request, type TestAccount } from '../support/app.js';
import { startBillingInstance, type BillingInstance } from './billing-instance.js';

describe('billing over time', () => {
  const clock = new TestClock('2026-01-10T00:00:00.000Z');
  let app: BillingInstance;

  before(async () => {
    app = await startBillingInstance({ clock });
  });
  after(() => app.close());

  const runBilling = async () => {
    await app.services.projections.waitFor(await app.services.store.headPosition());
    return app.services.billing.runDue(accountsWithBillingWork(app.services.projections.state<BillingModel>(BILLING_PROJECTION), clock.now()));
  };
  const get = async (account: TestAccount, path: string) => (await request(app, 'GET', path, { key: account.live })).body;

  it('a run after an outage of several periods charges each missed period and grants each its allowance: a good card does not lapse', async () => {
    clock.set('2026-01-10T00:00:00.000Z');
    const account = await openAccount(app, { tier: 'developer', credits: 0 });
    await request(app, 'PUT', '/v1/billing/payment-method', { key: account.live, body: { payment_token: 'tok_visa' } });
    await runBilling(); // the first period, paid

    clock.set('2026-04-12T00:00:00.000Z'); // February, March and April began while nothing ran
    expect(await runBilling()).to.include({ renewals: 3 });

    expect(await get(account, '/v1/billing/subscription')).to.deep.include({
      tier: 'developer', status: 'active', current_period_start: '2026-04-10T00:00:00.000Z', unpaid: { amount: 0, currency: 'EUR' },
    });
    expect(await get(account, '/v1/billing/credits')).to.include({ credits_available: 3 * 50_000 });
    const history = (await get(account, '/v1/billing/history')).data as { type: string; reference: string }[];
    expect(history.map(({ type }) => type)).to.not.include('lapsed');
    const paid = history.filter(({ type }) => type === 'fee_paid').map(({ reference }) => reference);
    expect(paid).to.have.members(['fee:2026-01-10T00:00:00.000Z', 'fee:2026-02-10T00:00:00.000Z', 'fee:2026-03-10T00:00:00.000Z', 'fee:2026-04-10T00:00:00.000Z']);
    expect((await get(account, '/v1/audit/credits')).verdict).to.include({ holds: true });
  });
});
