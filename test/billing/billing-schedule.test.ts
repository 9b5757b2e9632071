import { expect } from 'chai';
import { TestClock } from '../../core/clock.js';
import { BillingService } from '../../core/billing/billing-service.js';
import { loadPricing } from '../../core/billing/pricing.js';
import { scheduleBillingRun } from '../../core/billing/billing-schedule.js';
import { SandboxPaymentProvider } from '../../core/billing/sandbox-payment-provider.js';
import { CreditsService } from '../../core/credits/credits-service.js';
import { CommandHandler } from '../../core/domain/command-handler.js';
import { accountDecider, accountStream } from '../../core/domain/account/index.js';
import { eventDefinitions } from '../../core/domain/events.js';
import { EventRegistry } from '../../core/events/registry.js';
import { MemoryEventStore } from '../../core/store/memory-store.js';

describe('the billing run schedule', () => {
  it('runs once at start, without waiting for the first interval', async () => {
    const billing = new BillingService(new CreditsService(new CommandHandler(new MemoryEventStore(), new EventRegistry(eventDefinitions))), new SandboxPaymentProvider(), loadPricing(), new TestClock());
    const runs: Date[] = [];
    const schedule = scheduleBillingRun({ billing, clock: new TestClock(), dueAccounts: (now) => (runs.push(now), []), intervalMs: 3_600_000, onError: () => {} });
    await schedule.stop();
    expect(runs).to.have.length(1);
  });

  it('runs at start, then renews the due accounts from the clock\'s now, once per period, however often it runs', async () => {
    const clock = new TestClock('2026-01-10T00:00:00.000Z');
    const store = new MemoryEventStore();
    const commands = new CommandHandler(store, new EventRegistry(eventDefinitions));
    await commands.handle(accountDecider, accountStream('acc_1'), { type: 'OpenAccount', accountId: 'acc_1', tier: 'free', at: clock.now().toISOString() });
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
    const renewed = (await store.readStream(accountStream('acc_1'))).filter((event) => event.type === 'SubscriptionRenewed');
    expect(renewed.map((event) => (event.data as { period: number }).period)).to.deep.equal([0, 1, 2]);
  });
});
