import { expect } from 'chai';
import { openAccount, request, startTestApp, type TestApp } from '../../support/app.js';
import { pricingWithoutRateLimits } from '../../support/pricing.js';
import { cardsConfig } from './support/http.js';

/**
 * Two instances of the real app on one data folder (one store), background work off; the second's read models
 * poll once a minute, so that they move only when a request makes them: a job created through the first is read
 * through the second at once, as a client behind a load balancer reads it.
 */
describe('a job read through another instance right after its creation', function () {
  this.timeout(120_000);
  let first: TestApp;
  let second: TestApp;

  before(async () => {
    const services = { pricing: pricingWithoutRateLimits(), background: false };
    first = await startTestApp({ services });
    second = await startTestApp({ services: { ...services, projectionPollMs: 60_000 }, dataDir: first.config.dataDir });
  });
  after(async () => {
    await second?.close();
    await first?.close();
  });

  it('is found, and cancelled, through the other instance; a job that does not exist is still a 404', async () => {
    const account = await openAccount(first, { credits: 100 });
    // The second instance knows the account's keys; from here on it reads nothing new until a request asks.
    await second.services.projections.waitFor(await first.services.store.headPosition());
    const body = { config: cardsConfig({ merchants: 10 }, { format: 'csv' }) };
    const created = await request(first, 'POST', '/v1/jobs', { key: account.test, body });
    expect(created.status, created.text).to.equal(202);

    // Read before the second instance's read models have polled: a miss makes it catch up, not answer 404.
    const read = await request(second, 'GET', `/v1/jobs/${created.body.id}`, { key: account.test });
    expect(read.status, read.text).to.equal(200);
    expect(read.body).to.include({ id: created.body.id, state: 'queued' });

    const other = await request(first, 'POST', '/v1/jobs', { key: account.test, body });
    const cancelled = await request(second, 'POST', `/v1/jobs/${other.body.id}/cancel`, { key: account.test });
    expect(cancelled.status, cancelled.text).to.equal(200);
    expect(cancelled.body.state).to.equal('cancelled');

    const missing = await request(second, 'GET', '/v1/jobs/job_000000000000000000000000', { key: account.test });
    expect(missing.status).to.equal(404);
    expect(missing.body.type).to.match(/\/job-not-found$/);
  });
});
