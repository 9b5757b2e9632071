import { expect } from 'chai';
import { rm } from 'node:fs/promises';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { request, openAccount, startTestApp, type TestApp } from '../../support/app.js';
import { routeGroups } from '../../../api/app.js';
import { defineRoute, type RouteGroup } from '../../../api/http/route.js';

let enter: () => void = () => {};
let release: () => void = () => {};
const slow: RouteGroup = {
  tag: 'Service',
  description: 'test only',
  routes: [
    defineRoute({
      method: 'GET',
      path: '/v1/test/slow',
      operationId: 'slowRead',
      summary: 'waits',
      scope: null,
      responses: { 200: { description: 'done' } },
      async handle(ctx) {
        const released = new Promise<void>((resolve) => (release = resolve));
        enter();
        await released;
        ctx.body = { finished: true };
      },
    }),
  ],
};

describe('service operations: logs, metrics, readiness, graceful shutdown', () => {
  const lines: Record<string, unknown>[] = [];
  let app: TestApp;

  before(async () => {
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(JSON.parse(String(chunk)));
        done();
      },
    });
    app = await startTestApp({ groups: [...routeGroups, slow], logger: pino({ level: 'info' }, sink) });
  });
  after(() => app.close());

  it('logs each request as JSON with its request id, route, status and account', async () => {
    const account = await openAccount(app);
    const response = await request(app, 'GET', '/v1/keys', { key: account.live });
    const line = lines.find((entry) => entry.request_id === response.headers.get('request-id'));
    expect(line).to.include({
      method: 'GET',
      route: '/v1/keys',
      path: '/v1/keys',
      status: 200,
      account_id: account.accountId,
      mode: 'live',
    });
    expect(line!.duration_ms).to.be.a('number');
    expect(JSON.stringify(lines)).not.to.contain(account.live);
  });

  it('counts request durations by route template and status in /metrics', async () => {
    await request(app, 'DELETE', '/v1/keys/key_abc');
    const metrics = await request(app, 'GET', '/metrics');
    expect(metrics.headers.get('content-type')).to.match(/^text\/plain/);
    expect(metrics.text).to.contain(
      'http_request_duration_seconds_count{method="DELETE",route="/v1/keys/{id}",status="401"} 1',
    );
  });

  it('drains on shutdown: readiness fails, the request in flight finishes, new connections are refused', async () => {
    const other = await startTestApp({ groups: [...routeGroups, slow] });
    let servicesClosed = false;
    try {
      const entered = new Promise<void>((resolve) => (enter = resolve));
      const inFlight = request(other, 'GET', '/v1/test/slow');
      await entered;
      const closing = other.server.close(5000);
      expect(other.app.context.lifecycle.draining).to.equal(true);
      release();
      expect((await inFlight).body).to.deep.equal({ finished: true });
      await closing;
      let refused = false;
      await request(other, 'GET', '/healthz').catch(() => (refused = true));
      expect(refused).to.equal(true);
      await other.services.close();
      servicesClosed = true;
    } finally {
      // The test closes the server and services itself; its data directory is still to remove.
      if (servicesClosed) await rm(other.config.dataDir, { recursive: true, force: true });
      else await other.close();
    }
  });

  it('reports not ready while draining', async () => {
    app.app.context.lifecycle.draining = true;
    try {
      const response = await request(app, 'GET', '/readyz');
      expect(response.status).to.equal(503);
      expect(response.body.type).to.equal('https://errors.finsynth.dev/not-ready');
      expect(response.headers.get('retry-after')).to.equal('1');
    } finally {
      app.app.context.lifecycle.draining = false;
    }
    expect((await request(app, 'GET', '/readyz')).status).to.equal(200);
  });
});
