import { expect } from 'chai';
import {
  rawRequest,
  request,
  openAccount,
  startTestApp,
  type TestAccount,
  type TestApp,
  type TestResponse,
} from '../../support/app.js';
import { SCOPES } from '../../../core/auth/scopes.js';
import { routeGroups } from '../../../api/app.js';
import { defineRoute, type RouteGroup } from '../../../api/http/route.js';

/** A route that fails the way a bug would, to see that nothing of the failure leaks. */
const failing: RouteGroup = {
  tag: 'Service',
  description: 'test only',
  routes: [
    defineRoute({
      method: 'GET',
      path: '/v1/test/explode',
      operationId: 'explode',
      summary: 'throws',
      scope: null,
      responses: { 200: { description: 'never' } },
      handle() {
        throw new Error('secret internal detail at /srv/finsynth/core/db.ts:42');
      },
    }),
  ],
};

function expectProblem(
  response: Pick<TestResponse, 'status' | 'headers' | 'body'>,
  status: number,
  slug: string,
  instance: string,
) {
  expect(response.status).to.equal(status);
  expect(response.headers.get('content-type')).to.equal('application/problem+json');
  expect(response.body).to.include({ type: `https://errors.finsynth.dev/${slug}`, status, instance });
  expect(response.body.title).to.be.a('string').and.not.equal('');
  expect(response.body.detail).to.be.a('string').and.not.equal('');
  expect(response.headers.get('request-id')).to.equal(response.body.request_id);
}

describe('problem details on every path', () => {
  let app: TestApp;
  let account: TestAccount;

  before(async () => {
    app = await startTestApp({ groups: [...routeGroups, failing] });
    account = await openAccount(app);
  });
  after(() => app.close());
  // After every bad request, the service must still serve.
  afterEach(async () => {
    expect((await request(app, 'GET', '/healthz')).status).to.equal(200);
  });

  it('answers an unknown route with 404 route-not-found', async () => {
    expectProblem(
      await request(app, 'GET', '/v1/nowhere', { key: account.live }),
      404,
      'route-not-found',
      '/v1/nowhere',
    );
    expectProblem(await request(app, 'GET', '/', {}), 404, 'route-not-found', '/');
  });

  it('answers a wrong method with 405 and the Allow header', async () => {
    const response = await request(app, 'PATCH', '/v1/keys', { key: account.live });
    expectProblem(response, 405, 'method-not-allowed', '/v1/keys');
    expect(response.headers.get('allow')!.split(', ')).to.include.members(['GET', 'POST']);
  });

  it('answers malformed JSON with 400 malformed-json', async () => {
    const response = await request(app, 'POST', '/v1/keys', {
      key: account.live,
      body: '{"name": ',
      headers: { 'content-type': 'application/json' },
    });
    expectProblem(response, 400, 'malformed-json', '/v1/keys');
  });

  it('answers a missing or wrong Content-Type with 415', async () => {
    const missing = await request(app, 'POST', '/v1/keys', { key: account.live, body: '{}' });
    expectProblem(missing, 415, 'unsupported-media-type', '/v1/keys');
    const wrong = await request(app, 'POST', '/v1/keys', {
      key: account.live,
      body: '<keys/>',
      headers: { 'content-type': 'application/xml' },
    });
    expectProblem(wrong, 415, 'unsupported-media-type', '/v1/keys');
    expect(wrong.body.supported).to.deep.equal(['application/json']);
  });

  it('reads a media type written in any case and with spaces before its parameters (RFC 9110: case-insensitive)', async () => {
    for (const contentType of [
      'Application/JSON',
      'APPLICATION/JSON; charset=UTF-8',
      'application/json ; charset=utf-8',
    ]) {
      const response = await request(app, 'POST', '/v1/keys', {
        key: account.live,
        body: '{"name": "cased"}',
        headers: { 'content-type': contentType },
      });
      expect(response.status, `${contentType}: ${response.text}`).to.equal(201);
    }
    const yaml = await request(app, 'POST', '/v1/configs/raw', {
      key: account.test,
      body: 'version: 1\nsector: cards\ntables: [{name: cardholders, rows: 5}]\n',
      headers: { 'content-type': 'Application/YAML' },
    });
    expect(yaml.status, yaml.text).to.equal(200);
  });

  it('answers a compressed body with 415 and Accept-Encoding, rather than reading its bytes as text', async () => {
    const { gzipSync } = await import('node:zlib');
    const response = await request(app, 'POST', '/v1/keys', {
      key: account.live,
      body: gzipSync('{"name": "zipped"}'),
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
    });
    expectProblem(response, 415, 'unsupported-media-type', '/v1/keys');
    expect(response.headers.get('accept-encoding')).to.equal('identity');
    const identity = await request(app, 'POST', '/v1/keys', {
      key: account.live,
      body: '{"name": "plain"}',
      headers: { 'content-type': 'application/json', 'content-encoding': 'identity' },
    });
    expect(identity.status, identity.text).to.equal(201);
  });

  it('takes an empty body as no body where the body is optional, whatever its Content-Type', async () => {
    const response = await request(app, 'POST', '/v1/keys', {
      key: account.live,
      body: '',
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status, response.text).to.equal(201);
    expect(response.body.scopes).to.deep.equal([...SCOPES]);
    const required = await request(app, 'POST', '/v1/generate/quick', {
      key: account.test,
      body: '',
      headers: { 'content-type': 'application/json' },
    });
    expectProblem(required, 400, 'malformed-json', '/v1/generate/quick');
  });

  it('answers an HTTP/1.1 request without Host, and an Expect it cannot meet, with problem details too', async () => {
    const hostless = await rawRequest(
      app,
      `GET /v1/keys HTTP/1.1\r\nAuthorization: Bearer ${account.live}\r\nConnection: close\r\n\r\n`,
    );
    expect(hostless.status).to.equal(400);
    expect(hostless.headers['content-type']).to.equal('application/problem+json');
    expect(hostless.body).to.include({ type: 'https://errors.finsynth.dev/malformed-request', instance: '/v1/keys' });
    const expecting = await rawRequest(
      app,
      `POST /v1/keys HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${account.live}\r\n` +
        `Content-Type: application/json\r\nContent-Length: 2\r\nExpect: 200-ok\r\nConnection: close\r\n\r\n{}`,
    );
    expect(expecting.status).to.equal(417);
    expect(expecting.headers['content-type']).to.equal('application/problem+json');
    expect(expecting.body).to.include({
      type: 'https://errors.finsynth.dev/expectation-failed',
      status: 417,
      instance: '/v1/keys',
    });
    const continuing = await rawRequest(
      app,
      `POST /v1/keys HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${account.live}\r\n` +
        `Content-Type: application/json\r\nContent-Length: 2\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n{}`,
    );
    expect(continuing.status).to.equal(100);
  });

  it('answers a 10 MB body with 413, without reading it', async () => {
    const body = `{"name": "${'x'.repeat(10 * 1024 * 1024)}"}`;
    const response = await request(app, 'POST', '/v1/keys', {
      key: account.live,
      body,
      headers: { 'content-type': 'application/json' },
    });
    expectProblem(response, 413, 'payload-too-large', '/v1/keys');
    expect(response.body.limit_bytes).to.equal(1024 * 1024);
  });

  it('answers a chunked body that grows past the limit with 413', async () => {
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    let sent = 0;
    const body = new ReadableStream({
      pull(controller) {
        if (sent >= 4 * 1024 * 1024) return controller.close();
        sent += chunk.length;
        controller.enqueue(chunk);
      },
    });
    const response = await fetch(`${app.url}/v1/keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${account.live}`, 'content-type': 'application/json' },
      body,
      duplex: 'half',
    } as RequestInit);
    expect(response.status).to.equal(413);
    // The rest of the body is not read: the connection closes, or it would hang with the client's next request.
    expect(response.headers.get('connection')).to.equal('close');
    expect(((await response.json()) as { type: string }).type).to.equal(
      'https://errors.finsynth.dev/payload-too-large',
    );
  });

  it('answers JSON nested 10,000 levels deep with 400 nesting-too-deep', async () => {
    const body = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
    const response = await request(app, 'POST', '/v1/keys', {
      key: account.live,
      body,
      headers: { 'content-type': 'application/json' },
    });
    expectProblem(response, 400, 'nesting-too-deep', '/v1/keys');
  });

  it('answers a member named __proto__ anywhere in a JSON body with 400 reserved-member, and serves on unharmed', async () => {
    const body =
      '{"base":{"version":1,"sector":"cards","tables":[{"name":"transactions","rows":10,' +
      '"options":{"__proto__":{"free_pack":{"credits":1000000}}}}]}}';
    const response = await request(app, 'POST', '/v1/configs/compose', {
      key: account.test,
      body,
      headers: { 'content-type': 'application/json' },
    });
    expectProblem(response, 400, 'reserved-member', '/v1/configs/compose');
    expect(response.body.pointer).to.equal('/base/tables/0/options/__proto__');
    expect(({} as Record<string, unknown>).free_pack).to.equal(undefined);
    expect((await request(app, 'GET', '/v1/catalog', { key: account.test })).status).to.equal(200);
  });

  it('answers U+0000 or a lone surrogate in a JSON string or member name with 400 invalid-text, saying where', async () => {
    for (const [body, pointer] of [
      ['{"name": "ci\\u0000x"}', '/name'],
      ['{"name": "half \\ud83d"}', '/name'],
      ['{"scopes": ["\\udc00"]}', '/scopes/0'],
      ['{"na\\u0000me": "x"}', '/na\u0000me'],
    ]) {
      const response = await request(app, 'POST', '/v1/keys', {
        key: account.live,
        body,
        headers: { 'content-type': 'application/json' },
      });
      expectProblem(response, 400, 'invalid-text', '/v1/keys');
      expect(response.body.pointer, body).to.equal(pointer);
    }
    const paired = await request(app, 'POST', '/v1/keys', {
      key: account.live,
      body: '{"name": "rocket \\ud83d\\ude80"}',
      headers: { 'content-type': 'application/json' },
    });
    expect(paired.status, 'a surrogate pair is text like any other').to.equal(201);
  });

  it('answers invalid UTF-8 with 400 invalid-encoding', async () => {
    const body = Buffer.concat([Buffer.from('{"name": "'), Buffer.from([0xc3, 0x28, 0xff]), Buffer.from('"}')]);
    const response = await request(app, 'POST', '/v1/keys', {
      key: account.live,
      body,
      headers: { 'content-type': 'application/json' },
    });
    expectProblem(response, 400, 'invalid-encoding', '/v1/keys');
  });

  it('lists each failing field with a JSON pointer, the first 100 of a thousand unknown ones, and how many there were', async () => {
    const body: Record<string, unknown> = { scopes: ['generate', 'root'], name: '' };
    for (let index = 0; index < 1000; index += 1) body[`unknown_${index}`] = index;
    const response = await request(app, 'POST', '/v1/keys', { key: account.live, body });
    expectProblem(response, 400, 'validation-failed', '/v1/keys');
    const pointers: string[] = response.body.errors.map((error: { pointer: string }) => error.pointer);
    const failing = new Set(['/scopes/1', '/name', ...Array.from({ length: 1000 }, (_, index) => `/unknown_${index}`)]);
    expect(pointers).to.have.length(100);
    expect(new Set(pointers).size, 'each error once').to.equal(100);
    expect(pointers.every((pointer) => failing.has(pointer))).to.equal(true);
    expect(response.body).to.include({ errors_truncated: true, errors_total: 1002 });
    expect(response.body.detail).to.match(/^1002 fields failed validation \(the first 100 are listed\): /);
    expect(response.body.errors.every((error: { in: string }) => error.in === 'body')).to.equal(true);
  });

  it('lists a few failing fields without saying more were found', async () => {
    const response = await request(app, 'POST', '/v1/keys', {
      key: account.live,
      body: { scopes: ['root'], name: '' },
    });
    expectProblem(response, 400, 'validation-failed', '/v1/keys');
    expect(response.body.errors).to.have.length(2);
    expect(response.body).not.to.have.any.keys('errors_truncated', 'errors_total');
  });

  it('validates the query too', async () => {
    const response = await request(app, 'GET', '/v1/keys?limit=0&colour=red', { key: account.live });
    expectProblem(response, 400, 'validation-failed', '/v1/keys');
    expect(response.body.errors).to.deep.include.members([
      { in: 'query', pointer: '/limit', message: 'must be >= 1' },
      { in: 'query', pointer: '/colour', message: 'must NOT have additional properties' },
    ]);
  });

  it('answers an unexpected exception with 500 and leaks nothing of it', async () => {
    const response = await request(app, 'GET', '/v1/test/explode');
    expectProblem(response, 500, 'internal-error', '/v1/test/explode');
    expect(response.text).not.to.match(/secret|\/srv|db\.ts|stack/);
  });

  it('puts a Request-Id on every response', async () => {
    const ids = await Promise.all(
      ['/healthz', '/v1/keys', '/v1/nowhere'].map(async (path) =>
        (await request(app, 'GET', path)).headers.get('request-id'),
      ),
    );
    for (const id of ids) expect(id).to.match(/^req_[0-9a-f]{32}$/);
    expect(new Set(ids).size).to.equal(3);
  });
});
