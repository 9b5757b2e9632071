import { expect } from 'chai';
import { TestClock } from '../../../core/clock.js';
import { BillingService } from '../../../core/billing/billing-service.js';
import { loadPricing } from '../../../core/pricing/pricing.js';
import { SandboxPaymentProvider } from '../../../core/payments/sandbox-payment-provider.js';
import { CreditsService } from '../../../core/accounts/credits-service.js';
import type { AccountCommand } from '../../../core/accounts/account.js';
import { CommandHandler } from '../../../core/commands/command-handler.js';
import { accountDecider, accountStream } from '../../../core/accounts/account.js';
import { eventDefinitions } from '../../../core/services/event-definitions.js';
import { EventRegistry } from '../../../core/events/registry.js';
import { MemoryEventStore } from '../../../core/store/memory-store.js';
import {
  BILLING_PROJECTION,
  accountsWithBillingWork,
  type BillingModel,
} from '../../../projections/billing/billing.js';
import { openAccount, request, type TestAccount } from '../../support/app.js';
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
    return app.services.billing.runDue(
      accountsWithBillingWork(app.services.projections.state<BillingModel>(BILLING_PROJECTION), clock.now()),
    );
  };
  const get = async (account: TestAccount, path: string) =>
    (await request(app, 'GET', path, { key: account.live })).body;

  it('a run after an outage of several periods charges each missed period and grants each its allowance: a good card does not lapse', async () => {
    clock.set('2026-01-10T00:00:00.000Z');
    const account = await openAccount(app, { tier: 'developer', credits: 0 });
    await request(app, 'PUT', '/v1/billing/payment-method', { key: account.live, body: { payment_token: 'tok_visa' } });
    await runBilling(); // the first period, paid

    clock.set('2026-04-12T00:00:00.000Z'); // February, March and April began while nothing ran
    expect(await runBilling()).to.include({ renewals: 3 });

    expect(await get(account, '/v1/billing/subscription')).to.deep.include({
      tier: 'developer',
      status: 'active',
      current_period_start: '2026-04-10T00:00:00.000Z',
      unpaid: { amount: 0, currency: 'EUR' },
    });
    expect(await get(account, '/v1/billing/credits')).to.include({ credits_available: 3 * 50_000 });
    const history = (await get(account, '/v1/billing/history')).data as { type: string; reference: string }[];
    expect(history.map(({ type }) => type)).to.not.include('lapsed');
    const paid = history.filter(({ type }) => type === 'fee_paid').map(({ reference }) => reference);
    expect(paid).to.have.members([
      'fee:2026-01-10T00:00:00.000Z',
      'fee:2026-02-10T00:00:00.000Z',
      'fee:2026-03-10T00:00:00.000Z',
      'fee:2026-04-10T00:00:00.000Z',
    ]);
    expect((await get(account, '/v1/audit/credits')).verdict).to.include({ holds: true });
  });

  it('a tier change after the period ended, while the provider cannot answer for its fee, says the renewal waits on the provider (502), not "renew it"', async () => {
    clock.set('2026-01-10T00:00:00.000Z');
    const account = await openAccount(app, { tier: 'developer' });
    await request(app, 'PUT', '/v1/billing/payment-method', {
      key: account.live,
      body: { payment_token: 'tok_processingError' },
    });
    await runBilling(); // the first period, billed; its charge fails
    clock.set('2026-02-10T00:00:01.000Z');
    const response = await request(app, 'POST', '/v1/billing/subscription', {
      key: account.live,
      body: { tier: 'free' },
    });
    expect(response.status).to.equal(502);
    expect(response.body.type).to.match(/\/payment-provider-unavailable$/);
    expect(response.body.detail).to.equal(
      'the period ended at 2026-02-10T00:00:00.000Z and its renewal waits for the payment provider, ' +
        'which did not answer for the fees due; the tier can be changed once it is renewed. ' +
        'Retry later, or give another payment_token.',
    );

    const retried = await request(app, 'POST', '/v1/billing/subscription', {
      key: account.live,
      body: { tier: 'free', payment_token: 'tok_visa' },
    });
    expect(retried.status).to.equal(200);
    expect(retried.body).to.include({ change: 'downgrade_scheduled', effective_at: '2026-03-10T00:00:00.000Z' });
  });

  it('an upgrade replaces a scheduled downgrade, and the answer and the history say that the downgrade is cancelled', async () => {
    clock.set('2026-01-10T00:00:00.000Z');
    const account = await openAccount(app, { tier: 'developer', credits: 0 });
    await request(app, 'PUT', '/v1/billing/payment-method', { key: account.live, body: { payment_token: 'tok_visa' } });
    await runBilling();
    await request(app, 'POST', '/v1/billing/subscription', { key: account.live, body: { tier: 'free' } });
    clock.set('2026-01-20T00:00:00.000Z');
    const upgrade = await request(app, 'POST', '/v1/billing/subscription', {
      key: account.live,
      body: { tier: 'team' },
    });
    expect(upgrade.body).to.include({ change: 'upgraded', effective_at: '2026-01-20T00:00:00.000Z' });
    expect(upgrade.body.message).to.match(
      / The downgrade to free scheduled for 2026-02-10T00:00:00.000Z is cancelled\.$/,
    );
    expect(upgrade.body.subscription).to.include({ tier: 'team', pending_change: null });
    const history = (await get(account, '/v1/billing/history')).data as { type: string; tier: string }[];
    expect(history.slice(0, 4).map(({ type, tier }) => `${type} ${tier}`)).to.deep.equal([
      'fee_paid null',
      'upgrade team',
      'downgrade_cancelled developer',
      'downgrade_scheduled free',
    ]);

    clock.set('2026-02-10T00:00:00.000Z');
    await runBilling();
    expect(await get(account, '/v1/billing/subscription')).to.include({
      tier: 'team',
      current_period_start: '2026-02-10T00:00:00.000Z',
    });
  });
});

describe('billing runs of two instances over time', () => {
  it('two instances catching up on an outage of several periods at once charge each fee once and lapse nothing', async () => {
    const clock = new TestClock('2026-01-10T00:00:00.000Z');
    const store = new MemoryEventStore();
    const instance = () =>
      new BillingService(
        new CreditsService(new CommandHandler(store, new EventRegistry(eventDefinitions))),
        provider,
        loadPricing(),
        clock,
      );
    const provider = new SandboxPaymentProvider();
    const [a, b] = [instance(), instance()];
    await new CommandHandler(store, new EventRegistry(eventDefinitions)).handle(
      accountDecider,
      accountStream('acc_1'),
      { type: 'OpenAccount', accountId: 'acc_1', tier: 'developer', at: clock.now().toISOString() },
    );
    await a.setPaymentMethod('acc_1', 'tok_visa');
    await a.runDue(['acc_1']); // the first period, paid

    clock.set('2026-05-11T00:00:00.000Z');
    await Promise.all([a.runDue(['acc_1']), b.runDue(['acc_1']), a.runDue(['acc_1'])]);
    const events = await store.readStream(accountStream('acc_1'));
    const of = (type: string) =>
      events
        .filter((event) => event.type === type)
        .map((event) => event.data as { reference?: string; period?: number });
    expect(of('SubscriptionLapsed')).to.deep.equal([]);
    expect(of('SubscriptionRenewed').map(({ period }) => period)).to.deep.equal([0, 1, 2, 3, 4]);
    expect(of('SubscriptionFeePaid').map(({ reference }) => reference)).to.deep.equal(
      ['2026-01-10', '2026-02-10', '2026-03-10', '2026-04-10', '2026-05-10'].map((day) => `fee:${day}T00:00:00.000Z`),
    );
    expect(of('CreditsGranted').map(({ reference }) => reference)).to.deep.equal(
      ['2026-02-10', '2026-03-10', '2026-04-10', '2026-05-10'].map((day) => `allowance:${day}T00:00:00.000Z`),
    );
    expect(await a.subscription('acc_1')).to.deep.include({ tier: 'developer', status: 'active' });
  });
});

describe("an upgrade whose fee another instance's billing run charges first", () => {
  it('answers that it was paid and its credits granted, as they were', async () => {
    const clock = new TestClock('2026-01-10T00:00:00.000Z');
    const store = new MemoryEventStore();
    const provider = new SandboxPaymentProvider();
    const handler = () => new CommandHandler(store, new EventRegistry(eventDefinitions));
    const otherInstance = new BillingService(new CreditsService(handler()), provider, loadPricing(), clock);
    /**
     * Runs the other instance's billing run right after the upgrade is appended, before this instance charges
     * its fee.
     */
    class OvertakenCredits extends CreditsService {
      override async run(accountId: string, command: AccountCommand) {
        const result = await super.run(accountId, command);
        if (command.type === 'ChangeTier') await otherInstance.runDue([accountId]);
        return result;
      }
    }
    const billing = new BillingService(new OvertakenCredits(handler()), provider, loadPricing(), clock);
    await handler().handle(accountDecider, accountStream('acc_1'), {
      type: 'OpenAccount',
      accountId: 'acc_1',
      tier: 'developer',
      at: clock.now().toISOString(),
    });
    await billing.setPaymentMethod('acc_1', 'tok_visa');
    clock.set('2026-01-25T12:00:00.000Z'); // half of the period remains

    const answer = await billing.changeTier('acc_1', 'team');
    const granted = (await store.readStream(accountStream('acc_1')))
      .filter((event) => event.type === 'CreditsGranted')
      .map((event) => event.data);
    expect(granted).to.deep.equal([
      { reference: 'upgrade:2026-01-10T00:00:00.000Z:team', credits: 125_000, reason: 'upgrade to team, prorated' },
    ]);
    expect(answer).to.include({ change: 'upgraded', credits_granted: 125_000, amount: 10_000 });
    expect(answer.payment).to.include({ status: 'paid' });
    expect(answer.message).to.equal(
      'Upgraded to team now; 125000 credits granted for the rest of the period, which ends 2026-02-10T00:00:00.000Z.',
    );
  });
});
