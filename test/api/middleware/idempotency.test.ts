import { expect } from 'chai';
import { rm } from 'node:fs/promises';
import { PassThrough } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { rawRequest, request, openAccount, startTestApp, type TestAccount, type TestApp } from '../../support/app.js';
import { routeGroups } from '../../../api/app.js';
import { requestFingerprint } from '../../../api/middleware/idempotency.js';
import { defineRoute, type RouteGroup } from '../../../api/http/route.js';
import { TestClock } from '../../../core/clock.js';
import {
  CLAIM_LEASE_MS,
  CLAIM_RENEW_MS,
  idempotencyDecider,
  idempotencyStream,
} from '../../../core/idempotency/idempotency.js';

/**
 * A POST that counts how often it ran (did a repeat do the work again?), one that waits until the test
 * lets it finish (in flight), one that fails like a bug once (5xx), and one that streams a first chunk
 * and then nothing (a client leaves it mid-stream).
 */
let runs = 0;
let streams = 0;
let enteredSlow: () => void = () => {};
let releaseSlow: () => void = () => {};
let failures = 0;
const testRoutes: RouteGroup = {
  tag: 'Service',
  description: 'test only',
  routes: [
    defineRoute({
      method: 'POST',
      path: '/v1/test/count',
      operationId: 'count',
      summary: 'counts its runs',
      scope: 'keys:read',
      query: { properties: { variant: { type: 'string' } } },
      body: { content: { 'application/json': { type: 'object' } } },
      responses: { 201: { description: 'run' } },
      handle(ctx, { body }) {
        runs += 1;
        ctx.status = 201;
        ctx.set('Location', `/v1/test/count/${runs}`);
        ctx.body = { run: runs, body };
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/v1/test/slow',
      operationId: 'slow',
      summary: 'waits',
      scope: 'keys:read',
      body: { content: { 'application/json': { type: 'object' } } },
      responses: { 200: { description: 'done' } },
      async handle(ctx) {
        const released = new Promise<void>((resolve) => (releaseSlow = resolve));
        enteredSlow();
        await released;
        ctx.body = { done: true };
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/v1/test/stream',
      operationId: 'stream',
      summary: 'streams, never ends',
      scope: 'keys:read',
      body: { content: { 'application/json': { type: 'object' } } },
      responses: { 200: { description: 'a first chunk' } },
      handle(ctx) {
        streams += 1;
        const body = new PassThrough();
        body.write('first chunk\n');
        ctx.type = 'text/plain';
        ctx.body = body;
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/v1/test/flaky',
      operationId: 'flaky',
      summary: 'fails once',
      scope: 'keys:read',
      body: { content: { 'application/json': { type: 'object' } } },
      responses: { 200: { description: 'done' } },
      handle(ctx) {
        failures += 1;
        if (failures === 1) throw new Error('transient');
        ctx.body = { attempt: failures };
      },
    }),
  ],
};

describe('Idempotency-Key', () => {
  let app: TestApp;
  let account: TestAccount;
  let createdDataDir: string | undefined;
  const clock = new TestClock(new Date());

  before(async () => {
    app = await startTestApp({ groups: [...routeGroups, testRoutes], clock });
    createdDataDir = app.config.dataDir;
    account = await openAccount(app);
  });
  after(async () => {
    try {
      await app?.close();
    } finally {
      // The restart test replaces the app with one on the same folder, which is not its own to remove.
      if (createdDataDir) await rm(createdDataDir, { recursive: true, force: true });
    }
  });

  const issue = (key: string, idempotencyKey: string, body: unknown) =>
    request(app, 'POST', '/v1/keys', { key, body, headers: { 'idempotency-key': idempotencyKey } });
  const count = (key: string, idempotencyKey: string, body: unknown) =>
    request(app, 'POST', '/v1/test/count', { key, body, headers: { 'idempotency-key': idempotencyKey } });

  it('replays the first response to a repeat, without doing the work again', async () => {
    const first = await count(account.live, 'k-replay', { name: 'once' });
    const second = await count(account.live, 'k-replay', { name: 'once' });
    expect(first.status).to.equal(201);
    expect(second.status).to.equal(201);
    expect(second.body).to.deep.equal(first.body);
    expect(second.headers.get('location')).to.equal(first.headers.get('location'));
    expect(second.headers.get('idempotent-replayed')).to.equal('true');
    expect(second.headers.get('content-type')).to.equal(first.headers.get('content-type'));
    expect(second.headers.get('request-id')).not.to.equal(first.headers.get('request-id'));
    expect(runs).to.equal(first.body.run);
  });

  it('does not keep a new key, whose secret must never be stored: a repeat is refused, not run again', async () => {
    const first = await issue(account.live, 'k-secret', { name: 'secret-bearing' });
    expect(first.status).to.equal(201);
    const second = await issue(account.live, 'k-secret', { name: 'secret-bearing' });
    expect(second.status).to.equal(409);
    expect(second.body.type).to.equal('https://errors.finsynth.dev/idempotent-response-not-kept');
    const keys = await request(app, 'GET', '/v1/keys?limit=100', { key: account.live });
    expect(keys.body.data.filter((key: { name: string }) => key.name === 'secret-bearing')).to.have.length(1);
    const stored = (await app.services.store.readAll()).map((event) => JSON.stringify(event.data)).join('\n');
    expect(stored).not.to.contain(first.body.secret);
    expect(stored).not.to.contain(Buffer.from(first.body.secret).toString('base64').slice(0, 24));
  });

  it('treats members in another order as the same body', async () => {
    const first = await count(account.live, 'k-order', { name: 'ordered', scopes: ['keys:read'] });
    const second = await request(app, 'POST', '/v1/test/count', {
      key: account.live,
      body: '{"scopes": ["keys:read"], "name": "ordered"}',
      headers: { 'idempotency-key': 'k-order', 'content-type': 'application/json' },
    });
    expect(second.body.run).to.equal(first.body.run);
  });

  it('answers 422 to the same key with another body', async () => {
    await count(account.live, 'k-reused', { name: 'first' });
    const reused = await count(account.live, 'k-reused', { name: 'second' });
    expect(reused.status).to.equal(422);
    expect(reused.body.type).to.equal('https://errors.finsynth.dev/idempotency-key-reused');
  });

  it('answers 422 to the same key and body with another query', async () => {
    const first = await request(app, 'POST', '/v1/test/count?variant=a', {
      key: account.live,
      body: {},
      headers: { 'idempotency-key': 'k-query' },
    });
    expect(first.status).to.equal(201);
    const repeated = await request(app, 'POST', '/v1/test/count?variant=a', {
      key: account.live,
      body: {},
      headers: { 'idempotency-key': 'k-query' },
    });
    expect(repeated.body.run).to.equal(first.body.run);
    const other = await request(app, 'POST', '/v1/test/count?variant=b', {
      key: account.live,
      body: {},
      headers: { 'idempotency-key': 'k-query' },
    });
    expect(other.status).to.equal(422);
  });

  it('answers 409 to a repeat while the first is in flight', async () => {
    const options = { key: account.live, body: {}, headers: { 'idempotency-key': 'k-slow' } };
    const entered = new Promise<void>((resolve) => (enteredSlow = resolve));
    const first = request(app, 'POST', '/v1/test/slow', options);
    await entered;
    const conflict = await request(app, 'POST', '/v1/test/slow', options);
    expect(conflict.status).to.equal(409);
    expect(conflict.body.type).to.equal('https://errors.finsynth.dev/idempotency-in-flight');
    releaseSlow();
    expect((await first).body).to.deep.equal({ done: true });
    expect((await request(app, 'POST', '/v1/test/slow', options)).body).to.deep.equal({ done: true });
  });

  it('scopes keys to the mode: the same key with a test key is another request', async () => {
    const live = await count(account.live, 'k-mode', { name: 'moded' });
    const test = await count(account.test, 'k-mode', { name: 'moded' });
    expect(test.status).to.equal(201);
    expect(test.body.run).to.equal(live.body.run + 1);
  });

  it('scopes keys to the account', async () => {
    const other = await openAccount(app);
    const mine = await count(account.live, 'k-account', { name: 'x' });
    const theirs = await count(other.live, 'k-account', { name: 'x' });
    expect(theirs.status).to.equal(201);
    expect(theirs.body.run).to.equal(mine.body.run + 1);
  });

  it('does not keep a 500: the retry of the same request does the work, another request under the key is 422', async () => {
    const options = { key: account.live, body: {}, headers: { 'idempotency-key': 'k-flaky' } };
    expect((await request(app, 'POST', '/v1/test/flaky', options)).status).to.equal(500);
    const swapped = await request(app, 'POST', '/v1/test/flaky', { ...options, body: { other: true } });
    expect(swapped.status).to.equal(422);
    expect(swapped.body.type).to.equal('https://errors.finsynth.dev/idempotency-key-reused');
    const retry = await request(app, 'POST', '/v1/test/flaky', options);
    expect(retry.body).to.deep.equal({ attempt: 2 });
    expect((await request(app, 'POST', '/v1/test/flaky', options)).body).to.deep.equal({ attempt: 2 });
  });

  it('keeps a client error: its repeat gets the same problem', async () => {
    const narrow = await issue(account.live, 'k-narrow', { scopes: ['keys:write'] });
    const first = await issue(narrow.body.secret, 'k-escalate', { scopes: ['billing:write'] });
    const second = await issue(narrow.body.secret, 'k-escalate', { scopes: ['billing:write'] });
    expect(first.status).to.equal(403);
    expect(second.status).to.equal(403);
    expect(second.body.detail).to.equal(first.body.detail);
    expect(second.headers.get('content-type')).to.equal('application/problem+json');
  });

  it('refuses a malformed header, injection attempts included', async () => {
    for (const value of ['a b', '"unterminated', 'x'.repeat(256), 'k;Set-Cookie:a=b"', 'clé']) {
      const response = await issue(account.live, value, { name: 'never' });
      expect(response.status, value).to.equal(400);
      expect(response.body.type).to.equal('https://errors.finsynth.dev/invalid-idempotency-key');
    }
    for (const value of ['k\u0001ey', 'k\u007fey', 'k\rSet-Cookie: a=b']) {
      const body = '{"name":"never"}';
      const response = await rawRequest(
        app,
        `POST /v1/keys HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${account.live}\r\nIdempotency-Key: ${value}\r\n` +
          `Content-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
      );
      expect(response.status, JSON.stringify(value)).to.equal(400);
      expect(response.headers['content-type']).to.equal('application/problem+json');
      expect(response.body.type).to.equal('https://errors.finsynth.dev/malformed-request');
      expect(response.headers['set-cookie']).to.equal(undefined);
    }
    const keys = await request(app, 'GET', '/v1/keys?limit=100', { key: account.live });
    expect(keys.body.data.some((key: { name: string }) => key.name === 'never')).to.equal(false);
    expect((await request(app, 'GET', '/healthz')).status).to.equal(200);
  });

  it('accepts the quoted form of the draft as the same key', async () => {
    const bare = await count(account.live, 'k-quoted', { name: 'q' });
    const quoted = await count(account.live, '"k-quoted"', { name: 'q' });
    expect(quoted.body.run).to.equal(bare.body.run);
  });

  it('keeps a response for 24 hours, then lets the key be used afresh', async () => {
    const first = await count(account.live, 'k-expiry', { name: 'e' });
    clock.advance({ hours: 23, minutes: 59 });
    expect((await count(account.live, 'k-expiry', { name: 'e' })).body.run).to.equal(first.body.run);
    clock.advance({ minutes: 2 });
    const later = await count(account.live, 'k-expiry', { name: 'e' });
    expect(later.status).to.equal(201);
    expect(later.body.run).to.equal(runs);
    expect(later.body.run).to.be.greaterThan(first.body.run);
  });

  it('replays a streamed response byte for byte (quick generation, NDJSON)', async () => {
    const options = {
      key: account.test,
      body: { sector: 'cards', tables: [{ name: 'transactions', rows: 50 }] },
      headers: { accept: 'application/x-ndjson', 'idempotency-key': 'k-stream' },
    };
    const first = await request(app, 'POST', '/v1/generate/quick', options);
    const second = await request(app, 'POST', '/v1/generate/quick', options);
    expect(first.status).to.equal(200);
    expect(first.text.trim().split('\n')).to.have.length(50);
    expect(second.text).to.equal(first.text);
    expect(second.headers.get('content-type')).to.equal(first.headers.get('content-type'));
    expect(second.headers.get('idempotent-replayed')).to.equal('true');
  });

  it('does not run again a request whose response was too large to keep', async () => {
    const options = {
      key: account.test,
      body: { sector: 'cards', tables: [{ name: 'transactions', rows: 10_000 }] },
      headers: { accept: 'application/x-ndjson', 'idempotency-key': 'k-large' },
    };
    const first = await request(app, 'POST', '/v1/generate/quick', options);
    expect(first.status).to.equal(200);
    expect(first.text.length).to.be.greaterThan(1024 * 1024);
    const second = await request(app, 'POST', '/v1/generate/quick', options);
    expect(second.status).to.equal(409);
    expect(second.body.type).to.equal('https://errors.finsynth.dev/idempotent-response-not-kept');
  });

  describe('the claim is a lease', () => {
    const streamOf = (key: string) => idempotencyStream(account.accountId, 'live', key);
    /**
     * Polls the key's stream until it holds an event of this type (the test waits for the server, it
     * times nothing).
     */
    async function eventIn(key: string, type: string): Promise<void> {
      for (let attempt = 0; attempt < 250; attempt += 1) {
        if ((await app.services.store.readStream(streamOf(key))).some((event) => event.type === type)) return;
        await sleep(20);
      }
      throw new Error(`no ${type} on the stream of ${key}`);
    }

    it('a claim left by a dead instance blocks a retry for its lease (30 s), not longer', async () => {
      // What an instance that died mid-request leaves: a claim that nobody renews.
      await app.services.commands.handle(idempotencyDecider, streamOf('k-dead'), {
        type: 'ClaimKey',
        accountId: account.accountId,
        mode: 'live',
        fingerprint: requestFingerprint('POST', '/v1/test/count', {}, { name: 'd' }),
        requestId: 'req_of_a_dead_instance',
        at: clock.now().toISOString(),
      });
      expect((await count(account.live, 'k-dead', { name: 'd' })).status).to.equal(409);
      clock.advance({ ms: CLAIM_LEASE_MS - 1 });
      expect((await count(account.live, 'k-dead', { name: 'd' })).status).to.equal(409);
      clock.advance({ ms: 2 });
      const retry = await count(account.live, 'k-dead', { name: 'd' });
      expect(retry.status).to.equal(201);
      expect(retry.body.run).to.equal(runs);
      expect((await count(account.live, 'k-dead', { name: 'd' })).body.run).to.equal(retry.body.run);
    });

    it('a request that is alive renews its claim: a retry past the first lease is still 409, and the work runs once', async () => {
      const options = { key: account.live, body: {}, headers: { 'idempotency-key': 'k-renewed' } };
      const entered = new Promise<void>((resolve) => (enteredSlow = resolve));
      const first = request(app, 'POST', '/v1/test/slow', options);
      await entered;
      clock.advance({ ms: CLAIM_RENEW_MS });
      await eventIn('k-renewed', 'IdempotencyClaimRenewed');
      // Older than a lease since the claim, younger than one since the renewal.
      clock.advance({ ms: CLAIM_LEASE_MS - 1000 });
      const retry = await request(app, 'POST', '/v1/test/slow', options);
      expect(retry.status).to.equal(409);
      expect(retry.body.type).to.equal('https://errors.finsynth.dev/idempotency-in-flight');
      releaseSlow();
      expect((await first).body).to.deep.equal({ done: true });
      const replayed = await request(app, 'POST', '/v1/test/slow', options);
      expect(replayed.headers.get('idempotent-replayed')).to.equal('true');
      const types = (await app.services.store.readStream(streamOf('k-renewed'))).map((event) => event.type);
      expect(types[0]).to.equal('IdempotencyKeyClaimed');
      expect(types.at(-1)).to.equal('IdempotentResponseRecorded');
      expect(types.filter((type) => type === 'IdempotencyKeyClaimed')).to.have.length(1);
    });

    it('a client that leaves mid-stream: the response is recorded as not kept, and a repeat is not run again', async () => {
      const aborted = new AbortController();
      const response = await fetch(`${app.url}/v1/test/stream`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${account.live}`,
          'content-type': 'application/json',
          'idempotency-key': 'k-left',
        },
        body: '{}',
        signal: aborted.signal,
      });
      const reader = response.body!.getReader();
      expect(new TextDecoder().decode((await reader.read()).value)).to.equal('first chunk\n');
      aborted.abort();
      await eventIn('k-left', 'IdempotentResponseRecorded');
      const repeat = await request(app, 'POST', '/v1/test/stream', {
        key: account.live,
        body: {},
        headers: { 'idempotency-key': 'k-left' },
      });
      expect(repeat.status).to.equal(409);
      expect(repeat.body.type).to.equal('https://errors.finsynth.dev/idempotent-response-not-kept');
      expect(streams).to.equal(1);
    });
  });

  it('survives a restart: the record is in the store', async () => {
    const dataDir = app.config.dataDir;
    const first = await count(account.live, 'k-restart', { name: 'r' });
    await app.server.close();
    await app.services.close();
    app = await startTestApp({ groups: [...routeGroups, testRoutes], clock, dataDir });
    const replayed = await count(account.live, 'k-restart', { name: 'r' });
    expect(replayed.body).to.deep.equal(first.body);
    expect(replayed.headers.get('idempotent-replayed')).to.equal('true');
  });
});
