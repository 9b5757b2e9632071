import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TestClock } from '../../../core/clock.js';
import { purchaseReference } from '../../../core/billing/credit-purchases.js';
import { SandboxPaymentProvider } from '../../../core/payments/sandbox-payment-provider.js';
import {
  accountsWithBillingWork,
  BILLING_PROJECTION,
  type BillingModel,
} from '../../../projections/billing/billing.js';
import { openAccount, request, type TestAccount } from '../../support/app.js';
import { startBillingInstance, type BillingInstance } from './billing-instance.js';
import { DiesAfterApproval } from './dies-after-approval.js';

describe('a purchase whose process dies between the approval and its record', () => {
  const { clock, startDying, restart } = processesOfOneStore();
  let account: TestAccount;

  it('is completed by the billing run of the next start: the credits arrive exactly once', async () => {
    const dying = await startDying();
    account = await openAccount(dying, { tier: 'developer', credits: 100 });
    const bought = await request(dying, 'POST', '/v1/billing/credits', {
      key: account.live,
      body: { pack: 'small', payment_token: 'tok_visa' },
    });
    expect(bought.status).to.equal(500);
    expect((await request(dying, 'GET', '/v1/billing/credits', { key: account.live })).body).to.include({
      credits_available: 100,
    });
    await dying.close();

    clock.advance({ minutes: 3 });
    const restarted = await restart();
    // The run at start settles the open purchase with the provider.
    let history = await request(restarted, 'GET', '/v1/billing/history', { key: account.live });
    while (!history.body.data.some((line: { type: string }) => line.type === 'purchase')) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      history = await request(restarted, 'GET', '/v1/billing/history', { key: account.live });
    }
    expect((await request(restarted, 'GET', '/v1/billing/credits', { key: account.live })).body).to.include({
      credits_available: 10_100,
    });

    // Later runs find nothing more to do.
    const { services } = restarted;
    await services.projections.waitFor(await services.store.headPosition());
    const work = accountsWithBillingWork(services.projections.state<BillingModel>(BILLING_PROJECTION), clock.now());
    expect(await services.billing.runDue([...work, account.accountId])).to.include({ recovered: 0 });

    history = await request(restarted, 'GET', '/v1/billing/history', { key: account.live });
    const purchases = history.body.data.filter((line: { type: string }) => line.type.startsWith('purchase'));
    expect(purchases).to.have.length(1);
    expect(purchases[0]).to.include({ type: 'purchase', amount: 1000, currency: 'EUR', credits: 10_000 });
    expect((await request(restarted, 'GET', '/v1/billing/credits', { key: account.live })).body).to.include({
      credits_available: 10_100,
    });
    const audit = await request(restarted, 'GET', '/v1/audit/credits', { key: account.live });
    expect(audit.body.verdict).to.include({ holds: true });
  });
});

describe('a purchase under an Idempotency-Key whose process dies between the approval and its record', () => {
  const { provider, clock, startDying, restart } = processesOfOneStore();

  it('is completed by the retry after the restart: the same purchase, charged under the same key, credited once', async () => {
    const dying = await startDying();
    const account = await openAccount(dying, { tier: 'developer', credits: 100 });
    const buy = (instance: BillingInstance) =>
      request(instance, 'POST', '/v1/billing/credits', {
        key: account.live,
        headers: { 'Idempotency-Key': 'buy-1' },
        body: { pack: 'small', payment_token: 'tok_visa' },
      });
    const first = await buy(dying);
    expect(first.status).to.equal(500);
    await dying.close();

    const restarted = await restart();
    const retry = await buy(restarted);
    expect(retry.status).to.equal(201);
    const reference = purchaseReference({
      accountId: account.accountId,
      mode: 'live',
      idempotency: { key: 'buy-1', originalRequestId: first.headers.get('request-id')! },
    });
    expect(retry.body).to.include({ id: reference, credits_available: 10_100 });
    expect(await provider.lookup(reference)).to.include({ outcome: 'approved', payment_id: retry.body.payment_id });

    clock.advance({ minutes: 3 });
    expect(await restarted.services.billing.runDue([account.accountId])).to.include({ recovered: 0 });
    const history = await request(restarted, 'GET', '/v1/billing/history', { key: account.live });
    expect(history.body.data.filter((line: { type: string }) => line.type.startsWith('purchase'))).to.have.length(1);
    expect((await request(restarted, 'GET', '/v1/billing/credits', { key: account.live })).body).to.include({
      credits_available: 10_100,
    });
  });
});

/**
 * A store on disk that processes of the service use one after the other: `startDying()` starts one whose
 * payments die after the provider's approval, `restart()` a healthy one (closed after the suite). The
 * provider and the clock outlive the processes, as real ones do.
 */
function processesOfOneStore() {
  const provider = new SandboxPaymentProvider();
  const clock = new TestClock('2026-05-10T12:00:00.000Z');
  let dataDir = '';
  let restarted: BillingInstance | undefined;
  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'finsynth-recovery-'));
  });
  after(async () => {
    await restarted?.close();
    await rm(dataDir, { recursive: true, force: true });
  });
  return {
    provider,
    clock,
    startDying: () => startBillingInstance({ dataDir, clock, payments: new DiesAfterApproval(provider) }),
    restart: async () => (restarted = await startBillingInstance({ dataDir, clock, payments: provider })),
  };
}
