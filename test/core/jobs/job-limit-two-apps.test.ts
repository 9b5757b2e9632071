import { expect } from 'chai';
import { openAccount, request, startTestApp, type TestApp } from '../../support/app.js';
import { pricingWithoutRateLimits } from '../../support/pricing.js';
import { ExchangeChecker } from './support/documented.js';
import { cardsConfig } from './support/http.js';

/** 10 merchants: 1 credit. */
const body = { config: cardsConfig({ merchants: 10 }, { format: 'csv' }) };

/**
 * Two instances of the real app on one data folder (one store), with no runner (background work off):
 * a queued job keeps its slot for as long as the test needs, on every machine. The concurrent-job limit
 * is held on the account stream, so it is one limit for both.
 */
describe('the concurrent-job limit, over HTTP, across two instances of one store', function () {
  this.timeout(120_000);
  let first: TestApp;
  let second: TestApp;
  let checker: ExchangeChecker;

  before(async () => {
    const services = { pricing: pricingWithoutRateLimits(), background: false };
    first = await startTestApp({ services });
    second = await startTestApp({ services, dataDir: first.config.dataDir });
    checker = new ExchangeChecker((await request(first, 'GET', '/v1/openapi.json')).body);
  });
  after(async () => {
    await second?.close();
    await first?.close();
  });

  it('Free tier, 20 jobs at once through both: one admitted, 19 get the 429; a freed slot is one for both', async () => {
    const account = await openAccount(first, { tier: 'free', credits: 1000 });
    await second.services.projections.waitFor(await first.services.store.headPosition());
    const fleet = [first, second];
    const create = (index: number) => request(fleet[index % 2], 'POST', '/v1/jobs', { key: account.live, body });

    const answers = await Promise.all(Array.from({ length: 20 }, (_, index) => create(index)));
    const admitted = answers.filter((answer) => answer.status === 202);
    expect(admitted, answers.map((answer) => answer.status).join(' ')).to.have.length(1);
    for (const refused of answers.filter((answer) => answer.status !== 202)) {
      checker.check('POST', '/v1/jobs', refused);
      expect(refused.status).to.equal(429);
      expect(refused.body.type).to.match(/\/concurrent-job-limit$/);
      expect(refused.body).to.include({ limit: 1, active_jobs: 1, tier: 'free' });
      expect(refused.headers.get('retry-after')).to.match(/^\d+$/);
    }
    const oneHeld = { credits_available: 999, credits_reserved: 1 };
    expect(await second.services.credits.balance(account.accountId)).to.deep.equal(oneHeld);

    // Cancelled through the instance that did not admit it: the other one admits the next job, and only one.
    const jobId: string = admitted[0].body.id;
    const admittedBy = answers.indexOf(admitted[0]) % 2;
    // The other instance finds the job once its projections have passed the job's creation (they poll).
    await fleet[1 - admittedBy].services.projections.waitFor(await first.services.store.headPosition());
    const cancelled = await request(fleet[1 - admittedBy], 'POST', `/v1/jobs/${jobId}/cancel`, { key: account.live });
    expect(cancelled.body.state, cancelled.text).to.equal('cancelled');
    const next = await Promise.all([create(admittedBy), create(admittedBy), create(1 - admittedBy)]);
    expect(next.map((answer) => answer.status).sort()).to.deep.equal([202, 429, 429]);
    expect(await first.services.credits.balance(account.accountId)).to.deep.equal(oneHeld);
  });
});
