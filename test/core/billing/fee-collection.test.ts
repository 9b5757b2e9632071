import { expect } from 'chai';
import { TestClock } from '../../../core/clock.js';
import { BillingService } from '../../../core/billing/billing-service.js';
import { loadPricing } from '../../../core/pricing/pricing.js';
import { PaymentProviderError } from '../../../core/payments/payment-provider.js';
import { SandboxPaymentProvider } from '../../../core/payments/sandbox-payment-provider.js';
import { CreditsService } from '../../../core/accounts/credits-service.js';
import { CommandHandler } from '../../../core/commands/command-handler.js';
import { accountDecider, accountStream } from '../../../core/accounts/account.js';
import { eventDefinitions } from '../../../core/services/event-definitions.js';
import { EventRegistry } from '../../../core/events/registry.js';
import { MemoryEventStore } from '../../../core/store/memory-store.js';
import { CountingProvider } from './counting-provider.js';
import { DiesAfterApproval } from './dies-after-approval.js';

describe('subscription fee collection', () => {
  it('a run that died after the provider approved a fee is completed by the next run, and the fee is paid once', async () => {
    const clock = new TestClock('2026-01-10T00:00:00.000Z');
    const store = new MemoryEventStore();
    const commands = new CommandHandler(store, new EventRegistry(eventDefinitions));
    await commands.handle(accountDecider, accountStream('acc_1'), {
      type: 'OpenAccount',
      accountId: 'acc_1',
      tier: 'developer',
      at: clock.now().toISOString(),
    });
    const provider = new SandboxPaymentProvider();
    const counting = new CountingProvider(provider);
    const dying = new BillingService(
      new CreditsService(commands),
      new DiesAfterApproval(counting),
      loadPricing(),
      clock,
    );
    await dying.setPaymentMethod('acc_1', 'tok_visa').catch(() => {});
    await dying.runDue(['acc_1']); // the run dies after the approval: acc_1 is listed failed

    const restarted = new BillingService(new CreditsService(commands), counting, loadPricing(), clock);
    await restarted.runDue(['acc_1']);
    await restarted.runDue(['acc_1']);
    const events = await store.readStream(accountStream('acc_1'));
    const paid = events.filter((event) => event.type === 'SubscriptionFeePaid');
    expect(paid.map((event) => event.data)).to.deep.equal([
      {
        reference: 'fee:2026-01-10T00:00:00.000Z',
        amount: 4900,
        currency: 'EUR',
        payment_id: ((await provider.lookup('acc_1:fee:2026-01-10T00:00:00.000Z:1')) as { payment_id: string })
          .payment_id,
      },
    ]);
    // Charged twice under one idempotency key: the provider took the money once.
    expect(counting.charged).to.deep.equal([
      'acc_1:fee:2026-01-10T00:00:00.000Z:1',
      'acc_1:fee:2026-01-10T00:00:00.000Z:1',
    ]);
    expect((await restarted.subscription('acc_1')).status).to.equal('active');
  });

  it('a fee approved but not recorded is recorded paid by a restart after the period end: the account renews, it does not lapse', async () => {
    const clock = new TestClock('2026-01-10T00:00:00.000Z');
    const store = new MemoryEventStore();
    const commands = new CommandHandler(store, new EventRegistry(eventDefinitions));
    await commands.handle(accountDecider, accountStream('acc_1'), {
      type: 'OpenAccount',
      accountId: 'acc_1',
      tier: 'developer',
      at: clock.now().toISOString(),
    });
    const provider = new SandboxPaymentProvider();
    const dying = new BillingService(
      new CreditsService(commands),
      new DiesAfterApproval(provider),
      loadPricing(),
      clock,
    );
    await dying.setPaymentMethod('acc_1', 'tok_visa');
    await dying.runDue(['acc_1']); // the run dies after the approval: acc_1 is listed failed

    clock.set('2026-02-10T00:00:01.000Z');
    const restarted = new BillingService(new CreditsService(commands), provider, loadPricing(), clock);
    await restarted.runDue(['acc_1']);
    const events = await store.readStream(accountStream('acc_1'));
    expect(events.map((event) => event.type)).to.not.include('SubscriptionLapsed');
    expect(
      events
        .filter((event) => event.type === 'SubscriptionFeePaid')
        .map((event) => (event.data as { reference: string }).reference),
    ).to.deep.equal(['fee:2026-01-10T00:00:00.000Z', 'fee:2026-02-10T00:00:00.000Z']);
    expect(await restarted.subscription('acc_1')).to.deep.include({
      tier: 'developer',
      status: 'active',
      current_period_start: '2026-02-10T00:00:00.000Z',
    });
  });

  it('a provider that cannot answer at the period end defers the renewal: no lapse, and the fee is collected once it answers', async () => {
    const clock = new TestClock('2026-01-10T00:00:00.000Z');
    const store = new MemoryEventStore();
    const commands = new CommandHandler(store, new EventRegistry(eventDefinitions));
    await commands.handle(accountDecider, accountStream('acc_1'), {
      type: 'OpenAccount',
      accountId: 'acc_1',
      tier: 'developer',
      at: clock.now().toISOString(),
    });
    const provider = new SandboxPaymentProvider();
    let down = true;
    const flaky = {
      name: 'flaky',
      lookup: (reference: string) => provider.lookup(reference),
      hasPaymentMethod: (token: string) => provider.hasPaymentMethod(token),
      charge: (request: Parameters<typeof provider.charge>[0]) =>
        down ? Promise.reject(new PaymentProviderError('The provider is down.')) : provider.charge(request),
    };
    const billing = new BillingService(new CreditsService(commands), flaky, loadPricing(), clock);
    await billing.setPaymentMethod('acc_1', 'tok_visa');
    await billing.runDue(['acc_1']);
    clock.set('2026-02-10T00:00:01.000Z');
    expect(await billing.runDue(['acc_1'])).to.include({ renewals: 0 });
    expect((await billing.subscription('acc_1')).tier).to.equal('developer');

    down = false;
    await billing.runDue(['acc_1']);
    const events = await store.readStream(accountStream('acc_1'));
    expect(events.map((event) => event.type)).to.not.include('SubscriptionLapsed');
    expect(await billing.subscription('acc_1')).to.deep.include({
      tier: 'developer',
      status: 'active',
      current_period_start: '2026-02-10T00:00:00.000Z',
      unpaid: { amount: 0, currency: 'EUR' },
    });
  });

  it('a payment method kept before tokens were checked, named like a member of every object, is an unknown card: its fee is declined, the run goes on', async () => {
    const clock = new TestClock('2026-01-10T00:00:00.000Z');
    const store = new MemoryEventStore();
    const commands = new CommandHandler(store, new EventRegistry(eventDefinitions));
    await commands.handle(accountDecider, accountStream('acc_1'), {
      type: 'OpenAccount',
      accountId: 'acc_1',
      tier: 'developer',
      at: clock.now().toISOString(),
    });
    const credits = new CreditsService(commands);
    await credits.run('acc_1', { type: 'SetPaymentMethod', paymentMethod: 'toString', at: clock.now().toISOString() });
    const billing = new BillingService(credits, new SandboxPaymentProvider(), loadPricing(), clock);
    expect(await billing.runDue(['acc_1']))
      .to.include({ renewals: 1 })
      .and.have.property('failed')
      .that.has.lengthOf(0);
    const declined = (await store.readStream(accountStream('acc_1'))).filter(
      (event) => event.type === 'SubscriptionFeeDeclined',
    );
    expect(declined.map((event) => (event.data as { decline_code: string }).decline_code)).to.deep.equal([
      'invalid_token',
    ]);
    expect((await billing.subscription('acc_1')).status).to.equal('past_due');
  });
});
