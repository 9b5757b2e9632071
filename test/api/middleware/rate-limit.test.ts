import { expect } from 'chai';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { request, openAccount, startTestApp, type TestApp } from '../../support/app.js';
import { requireRedis } from '../../support/external-services.js';
import { freePort } from '../../support/ports.js';

/** A burst far above the free tier's 5 requests per second, sent at once. */
async function burst(apps: TestApp[], key: string, perApp: number) {
  const requests = apps.flatMap((app) =>
    Array.from({ length: perApp }, () => request(app, 'GET', '/v1/keys', { key })),
  );
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

/** One request of a flood: when it was sent and answered (client's clock, ms), and whether it was admitted. */
interface Exchange {
  sent: number;
  answered: number;
  admitted: boolean;
}

/** One request of the flood's shape, timed on the client's clock. */
async function exchange(app: TestApp, key: string): Promise<Exchange> {
  const sent = performance.now();
  const response = await request(app, 'GET', '/v1/keys', { key });
  expect(response.status).to.be.oneOf([200, 429]);
  return { sent, answered: performance.now(), admitted: response.status === 200 };
}

/**
 * The traffic that a one-second window admits twice its limit to: one request, which opens the window,
 * then nothing until just before the window closes, then requests as fast as `clients` loops can send
 * them (at most `bound`) until well after it has closed. The pause shapes the traffic; nothing is
 * asserted about time.
 */
async function flood(apps: TestApp[], key: string, clients: number, bound: number): Promise<Exchange[]> {
  const exchanges = [await exchange(apps[0]!, key)];
  await sleep(Math.max(0, exchanges[0]!.sent + 900 - performance.now()));
  const until = performance.now() + 600;
  const loop = async (client: number) => {
    while (performance.now() < until && exchanges.length < bound) {
      exchanges.push(await exchange(apps[(client + exchanges.length) % apps.length]!, key));
    }
  };
  await Promise.all(Array.from({ length: clients }, (_, client) => loop(client)));
  return exchanges;
}

/**
 * Every request admitted in a run of requests was admitted between the first one's sending and the last
 * one's answer, so a limit of `limit` per second without window edges admits at most limit + ⌊D × limit⌋
 * of any run that took D seconds; a fixed window admitted twice its limit in a few milliseconds across
 * its edge (the limit at the end of one window, the limit again at the start of the next).
 */
function expectNoWindowEdge(exchanges: Exchange[], limit: number): void {
  const admitted = exchanges.filter((exchange) => exchange.admitted).sort((a, b) => a.sent - b.sent);
  expect(admitted.length).to.be.at.least(limit);
  for (let first = 0; first < admitted.length; first += 1) {
    let answered = 0;
    for (let last = first; last < admitted.length; last += 1) {
      answered = Math.max(answered, admitted[last]!.answered);
      const seconds = (answered - admitted[first]!.sent) / 1000;
      const count = last - first + 1;
      const bound = limit + Math.floor(seconds * limit);
      expect(count, `${count} requests admitted within ${seconds.toFixed(3)} s`).to.be.at.most(bound);
    }
  }
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

  it("admits at most the limit plus what refilled in any run of requests across a window's edge", async function () {
    this.timeout(30_000);
    const app = await startTestApp();
    try {
      const account = await openAccount(app, { tier: 'free' });
      expectNoWindowEdge(await flood([app], account.live, 4, 2000), 5);
    } finally {
      await app.close();
    }
  });

  it('answers while Redis cannot be reached (a closed port): each instance limits from its own memory', async () => {
    const app = await startTestApp({ config: { redisUrl: `redis://127.0.0.1:${await freePort()}` } });
    try {
      const account = await openAccount(app, { tier: 'free' });
      const started = performance.now();
      const responses = await burst([app], account.live, 20);
      const seconds = (performance.now() - started) / 1000;
      expect(new Set(responses.map((response) => response.status))).to.deep.equal(new Set([200, 429]));
      // The memory bucket: the burst of the limit, and no more than what refilled while the burst lasted.
      const admitted = responses.filter((response) => response.status === 200).length;
      expect(admitted)
        .to.be.at.least(5)
        .and.at.most(5 + Math.floor(seconds * 5));
      expectLimited(responses);
    } finally {
      await app.close();
    }
  });

  it('takes the rate from the pricing file', async () => {
    const app = await startTestApp();
    try {
      const account = await openAccount(app, { tier: 'developer' });
      const response = await request(app, 'GET', '/v1/keys', { key: account.live });
      expect(response.headers.get('ratelimit-policy')).to.equal(
        `"developer";q=${app.services.pricing.tiers.developer.rate_limit_per_s};w=1`,
      );
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

    it("admits at most the limit plus what refilled across two instances, across a window's edge", async function () {
      this.timeout(30_000);
      const first = await startTestApp({ config: { redisUrl } });
      const second = await startTestApp({ config: { redisUrl }, dataDir: first.config.dataDir });
      try {
        const account = await openAccount(first, { tier: 'free' });
        await second.services.projections.waitFor(await first.services.store.headPosition());
        expectNoWindowEdge(await flood([first, second], account.live, 4, 2000), 5);
      } finally {
        await second.close();
        await first.close();
      }
    });
  });
});
