import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../core/settings/settings.js';
import { createServices, type Services } from '../../core/services/services.js';
import { LOCAL_ACCOUNT_ID, openLocalAccountOnFirstStart } from '../../cli/first-start.js';
import { accountStream } from '../../core/accounts/account.js';
import { TestClock } from '../../core/clock.js';

describe('first start', function () {
  this.timeout(60_000);
  let dataDir: string;
  const instances: Services[] = [];

  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'finsynth-first-start-'));
  });

  afterEach(async () => {
    for (const services of instances.splice(0)) await services.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const instance = async (clock?: TestClock) => {
    const services = await createServices(loadConfig({}, { dataDir, logLevel: 'silent' }), { clock });
    instances.push(services);
    return services;
  };

  it('opens the local account once when two instances start together on one empty store', async () => {
    const [a, b] = [await instance(), await instance()];
    const said = await Promise.all([openLocalAccountOnFirstStart(a), openLocalAccountOnFirstStart(b)]);
    expect(said.filter((text) => text?.includes('live key: '))).to.have.length(1);
    expect(said.filter((text) => text?.includes('another instance opened the local account'))).to.have.length(1);

    const opened = (await a.store.readAll()).filter((event) => event.type === 'AccountOpened');
    expect(opened.map((event) => event.stream)).to.deep.equal([accountStream(LOCAL_ACCOUNT_ID)]);
    expect(await openLocalAccountOnFirstStart(a), 'a later start').to.equal(null);
  });

  it('opens the local account invoiced: a month later it renews on scale with its allowance, no fee due', async () => {
    const clock = new TestClock('2026-01-10T00:00:00.000Z');
    const services = await instance(clock);
    await openLocalAccountOnFirstStart(services);
    await services.billing.runDue([LOCAL_ACCOUNT_ID]);
    clock.set('2026-02-10T00:00:01.000Z');
    await services.billing.runDue([LOCAL_ACCOUNT_ID]);

    const subscription = await services.billing.subscription(LOCAL_ACCOUNT_ID);
    expect(subscription).to.deep.include({
      tier: 'scale',
      status: 'active',
      current_period_start: '2026-02-10T00:00:00.000Z',
      unpaid: { amount: 0, currency: 'EUR' },
    });
    const events = await services.store.readStream(accountStream(LOCAL_ACCOUNT_ID));
    expect(events.map((event) => event.type)).to.not.include('SubscriptionLapsed');
    const allowance = services.pricing.tiers.scale.included_credits;
    expect(await services.credits.balance(LOCAL_ACCOUNT_ID)).to.include({ credits_available: 2 * allowance });
  });
});
