import { expect } from 'chai';
import { TestClock } from '../../../core/clock.js';
import { AccountBillingFailed, BillingService } from '../../../core/billing/billing-service.js';
import type { PaymentProvider } from '../../../core/payments/payment-provider.js';
import { loadPricing } from '../../../core/pricing/pricing.js';
import { scheduleBillingRun } from '../../../core/billing/billing-schedule.js';
import { SandboxPaymentProvider } from '../../../core/payments/sandbox-payment-provider.js';
import { CreditsService } from '../../../core/accounts/credits-service.js';
import { CommandHandler } from '../../../core/commands/command-handler.js';
import { accountDecider, accountStream } from '../../../core/accounts/account.js';
import { eventDefinitions } from '../../../core/services/event-definitions.js';
import { EventRegistry } from '../../../core/events/registry.js';
import { MemoryEventStore } from '../../../core/store/memory-store.js';

describe('the billing run schedule', () => {
  it('runs once at start, without waiting for the first interval', async () => {
    const billing = new BillingService(
      new CreditsService(new CommandHandler(new MemoryEventStore(), new EventRegistry(eventDefinitions))),
      new SandboxPaymentProvider(),
      loadPricing(),
      new TestClock(),
    );
    const runs: Date[] = [];
    const schedule = scheduleBillingRun({
      billing,
      clock: new TestClock(),
      dueAccounts: (now) => (runs.push(now), []),
      intervalMs: 3_600_000,
      onError: () => {},
    });
    await schedule.stop();
    expect(runs).to.have.length(1);
  });

  it("runs at start, then renews the due accounts from the clock's now, once per period, however often it runs", async () => {
    const clock = new TestClock('2026-01-10T00:00:00.000Z');
    const store = new MemoryEventStore();
    const commands = new CommandHandler(store, new EventRegistry(eventDefinitions));
    await commands.handle(accountDecider, accountStream('acc_1'), {
      type: 'OpenAccount',
      accountId: 'acc_1',
      tier: 'free',
      at: clock.now().toISOString(),
    });
    const credits = new CreditsService(commands);
    const billing = new BillingService(credits, new SandboxPaymentProvider(), loadPricing(), clock);
    const runs: Date[] = [];
    const errors: unknown[] = [];
    const schedule = scheduleBillingRun({
      billing,
      clock,
      dueAccounts: (now) => {
        runs.push(now);
        return ['acc_1'];
      },
      intervalMs: 5,
      onError: (error) => errors.push(error),
    });
    try {
      while (runs.length < 3) await new Promise((resolve) => setTimeout(resolve, 5));
      expect(await credits.balance('acc_1')).to.include({ credits_available: 0 });
      clock.set('2026-03-10T00:00:00.000Z');
      const ranAt = runs.length;
      while (runs.length < ranAt + 3) await new Promise((resolve) => setTimeout(resolve, 5));
    } finally {
      await schedule.stop();
    }
    expect(errors).to.deep.equal([]);
    expect(await credits.balance('acc_1')).to.include({ credits_available: 2000 });
    expect((await billing.subscription('acc_1')).current_period_start).to.equal('2026-03-10T00:00:00.000Z');
    // The first period billed once (free: nothing to charge), then February and March.
    const renewed = (await store.readStream(accountStream('acc_1'))).filter(
      (event) => event.type === 'SubscriptionRenewed',
    );
    expect(renewed.map((event) => (event.data as { period: number }).period)).to.deep.equal([0, 1, 2]);
  });

  it('one account whose billing fails is reported, and the run goes on: the accounts after it renew', async () => {
    const clock = new TestClock('2026-01-10T00:00:00.000Z');
    const commands = new CommandHandler(new MemoryEventStore(), new EventRegistry(eventDefinitions));
    const credits = new CreditsService(commands);
    const at = clock.now().toISOString();
    for (const [accountId, paymentMethod] of [
      ['acc_a', 'tok_amex'],
      ['acc_b', 'tok_visa'],
    ] as const) {
      await commands.handle(accountDecider, accountStream(accountId), {
        type: 'OpenAccount',
        accountId,
        tier: 'developer',
        at,
      });
      await credits.run(accountId, { type: 'SetPaymentMethod', paymentMethod, at });
    }
    // An adapter bug that throws for A's card: not a provider's answer, nor its PaymentProviderError.
    const sandbox = new SandboxPaymentProvider();
    const broken: PaymentProvider = {
      name: 'broken-for-amex',
      charge: (request) =>
        request.paymentToken === 'tok_amex'
          ? Promise.reject(new TypeError('a bug in the adapter'))
          : sandbox.charge(request),
      lookup: (reference) => sandbox.lookup(reference),
      hasPaymentMethod: (token) => sandbox.hasPaymentMethod(token),
    };
    const billing = new BillingService(credits, broken, loadPricing(), clock);
    await billing.runDue(['acc_a', 'acc_b']);
    clock.set('2026-02-10T00:00:01.000Z');

    const errors: unknown[] = [];
    const schedule = scheduleBillingRun({
      billing,
      clock,
      dueAccounts: () => ['acc_a', 'acc_b'],
      intervalMs: 3_600_000,
      onError: (error) => errors.push(error),
    });
    await schedule.stop();

    expect(errors).to.have.length(1);
    expect(errors[0]).to.be.instanceOf(AccountBillingFailed).and.include({ accountId: 'acc_a' });
    expect((errors[0] as Error).cause).to.be.instanceOf(TypeError);
    expect(await billing.subscription('acc_b')).to.deep.include({
      status: 'active',
      current_period_start: '2026-02-10T00:00:00.000Z',
      unpaid: { amount: 0, currency: 'EUR' },
    });
    expect((await billing.subscription('acc_a')).current_period_start).to.equal('2026-01-10T00:00:00.000Z');
  });
});
