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
