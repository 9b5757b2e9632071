import { expect } from 'chai';
import { CountingUnexpectedErrors } from '../../../core/faults/unexpected-errors.js';
import { PostgresEventStore } from '../../../core/store/postgres-store.js';
import { openAccount, startTestApp, type TestAccount, type TestApp } from '../../support/app.js';
import { dropPostgresSchema, requirePostgres, uniquePostgresSchema } from '../../support/external-services.js';
import { answered, call, json } from '../../faults/support/http-client.js';
import { delay } from '../../faults/support/processes.js';
import { startTcpProxy, type TcpProxy } from '../../faults/support/tcp-proxy.js';

/** A request with no answer within this time hangs: the bound, not a speed. */
const HANG_MS = 15_000;
const quick = { sector: 'cards', tables: [{ name: 'merchants', rows: 10 }], seed: 3 };

/**
 * The app on PostgreSQL behind a TCP proxy that refuses, cuts and freezes its connections, as a
 * restart, a failover or a hung server do. The fleet's version, with a real cluster stopped and
 * frozen, is test/faults/fleet.fault.ts (`npm run test:faults`).
 */
describe('store outages, over HTTP (PostgreSQL behind a proxy)', function () {
  this.timeout(120_000);
  let url: string;
  let schema: string;
  let proxy: TcpProxy;
  let app: TestApp;
  let account: TestAccount;
  const faults = new CountingUnexpectedErrors();

  before(async function () {
    url = await requirePostgres(this);
    const target = new URL(url);
    proxy = await startTcpProxy(target.hostname, Number(target.port || 5432));
    target.host = `127.0.0.1:${proxy.port}`;
    schema = uniquePostgresSchema('outage');
    const store = await PostgresEventStore.open(target.toString(), { schema, faults });
    app = await startTestApp({ services: { store } });
    account = await openAccount(app, { credits: 1000 });
  });

  after(async () => {
    await app?.close();
    await proxy?.close();
    if (schema) await dropPostgresSchema(url, schema);
  });

  /** An answer within HANG_MS, its JSON parsed; no answer fails the test. */
  async function send(method: string, path: string, options: { key?: string; body?: unknown } = {}) {
    const exchange = await call(app.url, method, path, { ...options, timeoutMs: HANG_MS });
    if (!answered(exchange)) throw new Error(`${method} ${path}: ${exchange.kind} ${exchange.error}`);
    const type = String(exchange.headers['content-type']);
    const text = exchange.body.toString('utf8');
    return {
      status: exchange.status,
      type,
      retryAfter: exchange.headers['retry-after'],
      text,
      body: type.includes('json') ? json(exchange) : text,
    };
  }

  async function readyAgain(): Promise<void> {
    for (let attempt = 0; attempt < 300; attempt++) {
      if ((await send('GET', '/readyz')).status === 200) return;
      await delay(100);
    }
    throw new Error('/readyz did not answer 200 again');
  }

  function expectStoreUnavailable(response: Awaited<ReturnType<typeof send>>): void {
    expect(response.status, response.text).to.equal(503);
    expect(response.type).to.match(/^application\/problem\+json/);
    expect(response.body.type).to.match(/\/store-unavailable$/);
    expect(response.retryAfter).to.equal('2');
  }

  it('reports connections cut while idle, replaces them, and goes on serving', async () => {
    expect((await send('POST', '/v1/generate/quick', { key: account.live, body: quick })).status).to.equal(200);
    const before = faults.seen.filter(({ source }) => source === 'postgres-pool').length;
    proxy.cut();
    for (
      let attempt = 0;
      attempt < 100 && faults.seen.filter(({ source }) => source === 'postgres-pool').length === before;
      attempt++
    )
      await delay(20);
    expect(faults.seen.filter(({ source }) => source === 'postgres-pool').length).to.be.above(before);
    expect((await send('POST', '/v1/generate/quick', { key: account.live, body: quick })).status).to.equal(200);
    expect((await send('GET', '/readyz')).status).to.equal(200);
  });

  it('answers 503 store-unavailable with Retry-After and /readyz 503 while nothing listens, and serves again once the store is back', async () => {
    await proxy.refuse();
    try {
      expectStoreUnavailable(await send('POST', '/v1/generate/quick', { key: account.live, body: quick }));
      const ready = await send('GET', '/readyz');
      expect(ready.status).to.equal(503);
      expect(ready.body.type).to.match(/\/not-ready$/);
      expect(ready.body.detail).to.equal('the event store cannot be reached');
      expect((await send('GET', '/healthz')).status, 'alive all the same').to.equal(200);
    } finally {
      await proxy.accept();
    }
    await readyAgain();
    expect((await send('POST', '/v1/generate/quick', { key: account.live, body: quick })).status).to.equal(200);
  });

  it('answers a frozen store within bounded waits (503, not a hang), and recovers when it thaws', async () => {
    proxy.freeze();
    try {
      const [generated, ready] = await Promise.all([
        send('POST', '/v1/generate/quick', { key: account.live, body: quick }),
        send('GET', '/readyz'),
      ]);
      expectStoreUnavailable(generated);
      expect(ready.status).to.equal(503);
      expect(ready.body.detail).to.equal('the event store did not answer within 2000 ms');
    } finally {
      proxy.thaw();
    }
    await readyAgain();
    expect((await send('POST', '/v1/generate/quick', { key: account.live, body: quick })).status).to.equal(200);
  });

  it('declares 503 store-unavailable, with Retry-After, on the operations that need a key', async () => {
    const document = (await send('GET', '/v1/openapi.json')).body;
    const answered = document.paths['/v1/generate/quick'].post.responses['503'];
    expect(answered['x-problem-slugs']).to.include('store-unavailable');
    expect(answered.headers).to.have.property('Retry-After');
    expect(document.paths['/readyz'].get.responses['503']['x-problem-slugs']).to.deep.equal(['not-ready']);
  });
});
