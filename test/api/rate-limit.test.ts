import { expect } from 'chai';
import { request, openAccount, startTestApp, type TestApp } from '../support/app.js';
import { requireRedis } from '../support/external-services.js';

/** A burst far above the free tier's 5 requests per second, sent at once. */
async function burst(apps: TestApp[], key: string, perApp: number) {
  const requests = apps.flatMap((app) => Array.from({ length: perApp }, () => request(app, 'GET', '/v1/keys', { key })));
  return Promise.all(requests);
}

function expectLimited(responses: Awaited<ReturnType<typeof burst>>) {
  const refused = responses.filter((response) => response.status === 429);
  expect(refused.length).to.be.greaterThan(0);
  for (const response of refused) {
    expect(response.headers.get('content-type')).to.equal('application/problem+json');
    expect(response.body.type).to.equal('https://errors.finsynth.dev/rate-limited');
    expect(response.headers.get('retry-after')).to.match(/^[1-9]\d*$/);
    expect(response.headers.get('ratelimit-policy')).to.equal('"free";q=5;w=1');
    expect(response.headers.get('ratelimit')).to.match(/^"free";r=0;t=[1-9]\d*$/);
  }
  return refused.length;
}

describe('rate limits per tier', () => {
  it('refuses requests above the tier rate with 429, Retry-After and RateLimit headers', async () => {
    const app = await startTestApp();
    try {
      const account = await openAccount(app, { tier: 'free' });
      const responses = await burst([app], account.live, 20);
      expectLimited(responses);
      // Live and test keys of one account share its limit; another account has its own.
      expect((await request(app, 'GET', '/v1/keys', { key: account.test })).status).to.be.oneOf([200, 429]);
      const other = await openAccount(app, { tier: 'free' });
      expect((await request(app, 'GET', '/v1/keys', { key: other.live })).status).to.equal(200);
    } finally {
      await app.close();
    }
  });

  it('takes the rate from the pricing file', async () => {
    const app = await startTestApp();
    try {
      const account = await openAccount(app, { tier: 'developer' });
      const response = await request(app, 'GET', '/v1/keys', { key: account.live });
      expect(response.headers.get('ratelimit-policy')).to.equal(`"developer";q=${app.services.pricing.tiers.developer.rate_limit_per_s};w=1`);
    } finally {
      await app.close();
    }
  });

  describe('shared through Redis', () => {
    let redisUrl: string;
    before(async function () {
      redisUrl = await requireRedis(this);
    });

    it('makes two instances draw from one limit', async () => {
      const first = await startTestApp({ config: { redisUrl } });
      const second = await startTestApp({ config: { redisUrl }, dataDir: first.config.dataDir });
      try {
        const account = await openAccount(first, { tier: 'free' });
        await second.services.projections.waitFor(await first.services.store.headPosition());
        // Four each: within either instance's own limit, above the shared one.
        expectLimited(await burst([first, second], account.live, 4));
      } finally {
        await second.close();
        await first.close();
      }
    });
  });
});
