import { expect } from 'chai';
import {
  request,
  openAccount,
  startTestApp,
  type TestAccount,
  type TestApp,
  type TestResponse,
} from '../../support/app.js';

describe('authentication and scopes', () => {
  let app: TestApp;
  let account: TestAccount;

  before(async () => {
    app = await startTestApp();
    account = await openAccount(app);
  });
  after(() => app.close());

  const expectUnauthorized = (response: Pick<TestResponse, 'status' | 'body' | 'headers'>) => {
    expect(response.status).to.equal(401);
    expect(response.body.type).to.equal('https://errors.finsynth.dev/unauthorized');
    expect(response.headers.get('www-authenticate')).to.match(/^Bearer/);
  };

  it('refuses a missing, malformed or unknown key with 401', async () => {
    expectUnauthorized(await request(app, 'GET', '/v1/keys'));
    expectUnauthorized(
      await request(app, 'GET', '/v1/keys', {
        headers: { authorization: `Basic ${Buffer.from('a:b').toString('base64')}` },
      }),
    );
    expectUnauthorized(await request(app, 'GET', '/v1/keys', { key: 'svc_live_short' }));
    expectUnauthorized(await request(app, 'GET', '/v1/keys', { key: `svc_prod_${'a'.repeat(32)}` }));
    expectUnauthorized(await request(app, 'GET', '/v1/keys', { key: `svc_live_${'a'.repeat(32)}` }));
    expectUnauthorized(await request(app, 'GET', '/v1/keys', { key: `${account.live}x` }));
  });

  it('refuses a key in the query string, and says where keys go', async () => {
    const response = await request(app, 'GET', `/v1/keys?api_key=${account.live}`);
    expectUnauthorized(response);
    expect(response.body.detail).to.match(/Authorization header only/);
  });

  it('answers 403 naming the missing scope', async () => {
    const issued = await request(app, 'POST', '/v1/keys', { key: account.live, body: { scopes: ['keys:read'] } });
    expect(issued.status).to.equal(201);
    const refused = await request(app, 'POST', '/v1/keys', { key: issued.body.secret, body: {} });
    expect(refused.status).to.equal(403);
    expect(refused.body).to.include({
      type: 'https://errors.finsynth.dev/missing-scope',
      required_scope: 'keys:write',
    });
    expect(refused.body.detail).to.contain('keys:write');
    expect((await request(app, 'GET', '/v1/keys', { key: issued.body.secret })).status).to.equal(200);
  });

  it('needs no key for health, readiness, metrics and the OpenAPI document', async () => {
    for (const path of ['/healthz', '/readyz', '/metrics', '/v1/openapi.json']) {
      expect((await request(app, 'GET', path)).status, path).to.equal(200);
    }
  });

  it('puts the RateLimit headers on authenticated responses, errors included', async () => {
    const ok = await request(app, 'GET', '/v1/keys', { key: account.test });
    expect(ok.headers.get('ratelimit-policy')).to.equal('"scale";q=100;w=1');
    expect(ok.headers.get('ratelimit')).to.match(/^"scale";r=\d+;t=\d+$/);
    const invalid = await request(app, 'GET', '/v1/keys?limit=1000', { key: account.test });
    expect(invalid.status).to.equal(400);
    expect(invalid.headers.get('ratelimit')).to.match(/^"scale";r=\d+;t=\d+$/);
  });

  it('uses the configured key prefix and error type base', async () => {
    const branded = await startTestApp({ config: { keyPrefix: 'acme', errorTypeBase: 'https://errors.example.com' } });
    try {
      const keys = await openAccount(branded);
      expect(keys.live).to.match(/^acme_live_[0-9A-Za-z]{32}$/);
      expect(keys.test).to.match(/^acme_test_[0-9A-Za-z]{32}$/);
      expect((await request(branded, 'GET', '/v1/keys', { key: keys.test })).status).to.equal(200);
      const refused = await request(branded, 'GET', '/v1/keys', { key: account.live });
      expect(refused.body.type).to.equal('https://errors.example.com/unauthorized');
    } finally {
      await branded.close();
    }
  });
});

/**
 * Two instances of the real app on one data folder, background work off; the second's read models poll once a
 * minute, so that they move only when a request makes them: a key made through the first is used through the
 * second at once, as a client behind a load balancer uses it.
 */
describe('a key used through another instance right after its creation', function () {
  this.timeout(60_000);
  let first: TestApp;
  let second: TestApp;

  before(async () => {
    first = await startTestApp({ services: { background: false } });
    second = await startTestApp({
      services: { background: false, projectionPollMs: 60_000 },
      dataDir: first.config.dataDir,
    });
  });
  after(async () => {
    await second?.close();
    await first?.close();
  });

  it('is known there at once, and a key that does not exist is still a 401', async () => {
    const account = await openAccount(first);
    // From here on the second instance reads nothing new until a request asks.
    await second.services.projections.waitFor(await first.services.store.headPosition());
    const made = await request(first, 'POST', '/v1/keys', { key: account.live, body: { name: 'made elsewhere' } });
    expect(made.status, made.text).to.equal(201);
    const current = await request(second, 'GET', '/v1/keys/current', { key: made.body.secret });
    expect(current.status, current.text).to.equal(200);
    expect(current.body).to.include({ id: made.body.id, name: 'made elsewhere' });
    const secret: string = made.body.secret;
    const other = `${secret.slice(0, -1)}${secret.endsWith('a') ? 'b' : 'a'}`;
    const unknown = await request(second, 'GET', '/v1/keys/current', { key: other });
    expect(unknown.status).to.equal(401);
    expect(unknown.body.detail).to.equal('this key is not known');
  });
});
