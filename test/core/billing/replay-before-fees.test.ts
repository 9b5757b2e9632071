import { expect } from 'chai';
import { TestClock } from '../../../core/clock.js';
import { BillingService } from '../../../core/billing/billing-service.js';
import { loadPricing } from '../../../core/pricing/pricing.js';
import { SandboxPaymentProvider } from '../../../core/payments/sandbox-payment-provider.js';
import { CreditsService } from '../../../core/accounts/credits-service.js';
import { CommandHandler } from '../../../core/commands/command-handler.js';
import { accountStream } from '../../../core/accounts/account.js';
import { eventDefinitions } from '../../../core/services/event-definitions.js';
import { EventRegistry } from '../../../core/events/registry.js';
import { MemoryEventStore } from '../../../core/store/memory-store.js';
import { CountingProvider } from './counting-provider.js';

// An account written before fees were charged: its v1 billing events were paid, and granted with them.
const january = { period_start: '2026-01-01T00:00:00.000Z', period_end: '2026-02-01T00:00:00.000Z' };
const february = { period_start: '2026-02-01T00:00:00.000Z', period_end: '2026-03-01T00:00:00.000Z' };
const beforeFees = [
  { type: 'AccountOpened', data: { account_id: 'acc_old', tier: 'developer', opened_at: january.period_start } },
  {
    type: 'CreditsGranted',
    data: { reference: 'opening-acc_old', credits: 50_000, reason: 'developer tier allowance' },
  },
  {
    type: 'SubscriptionUpgraded',
    data: {
      from_tier: 'developer',
      to_tier: 'team',
      at: '2026-01-16T12:00:00.000Z',
      ...january,
      credits: 125_000,
      amount: 10_000,
      currency: 'EUR',
    },
  },
  {
    type: 'CreditsGranted',
    data: { reference: `upgrade:${january.period_start}:team`, credits: 125_000, reason: 'upgrade to team, prorated' },
  },
  {
    type: 'SubscriptionRenewed',
    data: {
      period: 1,
      tier: 'team',
      previous_tier: 'team',
      ...february,
      credits: 300_000,
      amount: 24_900,
      currency: 'EUR',
    },
  },
  {
    type: 'CreditsGranted',
    data: { reference: `allowance:${february.period_start}`, credits: 300_000, reason: 'team monthly allowance' },
  },
].map((event) => ({ ...event, version: 1 }));

describe('replaying billing events written before fees were charged (v1)', () => {
  async function oldAccount(at: string) {
    const store = new MemoryEventStore();
    await store.append(accountStream('acc_old'), beforeFees);
    const clock = new TestClock(at);
    const counting = new CountingProvider(new SandboxPaymentProvider());
    const billing = new BillingService(
      new CreditsService(new CommandHandler(store, new EventRegistry(eventDefinitions))),
      counting,
      loadPricing(),
      clock,
    );
    return { store, billing, charges: counting.charged };
  }

  it('shows their fees settled: active, nothing unpaid, nothing charged, no credit granted again', async () => {
    const { billing, charges, store } = await oldAccount('2026-02-10T00:00:00.000Z');
    await billing.runDue(['acc_old']);
    expect(await billing.subscription('acc_old')).to.deep.include({
      tier: 'team',
      status: 'active',
      unpaid: { amount: 0, currency: 'EUR' },
    });
    expect(charges).to.deep.equal([]);
    expect((await store.readStream(accountStream('acc_old'))).length).to.equal(beforeFees.length);
  });

  it('does not lapse them at the end of the period', async () => {
    const { billing, store } = await oldAccount('2026-03-01T00:00:01.000Z');
    await billing.runDue(['acc_old']);
    const types = (await store.readStream(accountStream('acc_old'))).map((event) => event.type);
    expect(types).to.not.include('SubscriptionLapsed');
    expect((await billing.subscription('acc_old')).tier).to.equal('team');
  });
});
