import { createHmac, timingSafeEqual } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { request, openAccount, startTestApp, type TestAccount, type TestApp } from '../../support/app.js';
import { ResponseChecker } from '../../support/openapi.js';
import type { JsonBody } from '../../support/json-body.js';
import { Receiver } from '../../core/webhooks/support/receiver.js';
import { pollJob } from '../../core/jobs/support/http.js';
import { isEventOf } from '../../../core/events/event-of.js';
import type { WebhookDeliveryScheduled } from '../../../core/webhooks/events.js';

/** The receivers of these tests listen on 127.0.0.1, which only an operator's setting lets through. */
const LOCAL_RECEIVERS = {
  webhooksAllowPrivateNetworks: true,
  webhookTimeoutMs: 1000,
  webhookRetryFirstMs: 20,
  webhookRetryMaxMs: 100,
  webhookRetryForMs: 600_000,
};

/** A pack whose generator throws: its jobs fail. */
const FAILING_PACK = fileURLToPath(new URL('../../support/packs/failing-pack/', import.meta.url));

const config = (rows = 10) => ({
  version: 1,
  sector: 'cards',
  seed: 7,
  tables: [{ name: 'cardholders', rows }],
  output: { format: 'csv' },
});

/** Verifies as docs/webhooks.md tells receivers to, written here from the contract rather than imported. */
function verifies(body: string, header: string, secret: string): boolean {
  const parts = header.split(',').map((part) => part.split('='));
  const t = parts.find(([name]) => name === 't')?.[1];
  const expected = createHmac('sha256', secret).update(`${t}.${body}`).digest();
  if (t === undefined || Math.abs(Date.now() / 1000 - Number(t)) > 300) return false;
  return parts
    .filter(([name]) => name === 'v1')
    .some(
      ([, hex]) =>
        Buffer.from(hex!, 'hex').length === expected.length && timingSafeEqual(Buffer.from(hex!, 'hex'), expected),
    );
}

async function createEndpoint(app: TestApp, key: string, body: Record<string, unknown>): Promise<JsonBody> {
  const created = await request(app, 'POST', '/v1/webhooks', { key, body });
  expect(created.status, created.text).to.equal(201);
  return created.body;
}

async function runJob(app: TestApp, key: string, rows = 10): Promise<string> {
  const created = await request(app, 'POST', '/v1/jobs', { key, body: { config: config(rows) } });
  expect(created.status, created.text).to.equal(202);
  return created.body.id;
}

/** The deliveries scheduled for an endpoint, from the events themselves: what was decided, sent or not yet. */
async function scheduledFor(app: TestApp, endpointId: string): Promise<WebhookDeliveryScheduled['data'][]> {
  return (await app.services.store.readAll())
    .filter((event) => isEventOf<WebhookDeliveryScheduled>(event, ['WebhookDeliveryScheduled']))
    .map((event) => event.data as WebhookDeliveryScheduled['data'])
    .filter((scheduled) => scheduled.endpoint_id === endpointId);
}

/** Reads the deliveries list until `done` holds; bounded by the test's timeout (it proves the outcome only). */
async function deliveriesUntil(
  app: TestApp,
  key: string,
  endpointId: string,
  done: (deliveries: JsonBody[]) => boolean,
): Promise<JsonBody[]> {
  for (;;) {
    const listed = await request(app, 'GET', `/v1/webhooks/${endpointId}/deliveries`, { key });
    expect(listed.status, listed.text).to.equal(200);
    if (done(listed.body.data)) return listed.body.data;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('webhooks over HTTP', () => {
  let app: TestApp;
  let account: TestAccount;
  let checker: ResponseChecker;
  const receivers: Receiver[] = [];
  const receiver = async (...args: Parameters<typeof Receiver.start>) => {
    const started = await Receiver.start(...args);
    receivers.push(started);
    return started;
  };

  before(async () => {
    app = await startTestApp({ config: { ...LOCAL_RECEIVERS, packs: [FAILING_PACK] } });
    account = await openAccount(app);
    checker = new ResponseChecker((await request(app, 'GET', '/v1/openapi.json')).body);
  });
  after(async () => {
    await app.close();
    await Promise.all(receivers.map((started) => started.close()));
  });

  it('sends a signed job.succeeded that verifies with the secret shown at creation', async () => {
    const hooks = await receiver();
    const created = await request(app, 'POST', '/v1/webhooks', {
      key: account.live,
      body: { url: hooks.url, events: ['job.succeeded'], description: 'exports' },
    });
    checker.check('POST', '/v1/webhooks', created);
    expect(created.status).to.equal(201);
    expect(created.body).to.include({ url: hooks.url, mode: 'live', status: 'enabled', description: 'exports' });
    expect(created.body.id).to.match(/^we_[0-9a-f]{24}$/);
    expect(created.body.secret).to.match(/^whsec_[A-Za-z0-9_-]{43}$/);

    const jobId = await runJob(app, account.live);
    await hooks.next(1);
    const [delivery] = hooks.received;
    const event = JSON.parse(delivery!.body);
    expect(event).to.include({ type: 'job.succeeded', livemode: true });
    expect(event.id).to.match(/^evt_[0-9a-f]{32}$/);
    expect(event.created).to.be.a('number');
    expect(event.data.object).to.include({ id: jobId, object: 'job', state: 'succeeded', sector: 'cards' });
    expect(event.data.object.results[0]).to.include({ table: 'cardholders', rows: 10 });
    expect(event.data.object.results[0].download_url).to.equal(`/v1/jobs/${jobId}/results/cardholders`);
    expect(delivery!.headers).to.include({
      'content-type': 'application/json',
      'user-agent': 'finsynth-webhooks/1',
      'finsynth-event-id': event.id,
    });
    const signature = String(delivery!.headers['finsynth-signature']);
    expect(signature).to.match(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(verifies(delivery!.body, signature, created.body.secret)).to.equal(true);
    expect(verifies(delivery!.body, signature, `${created.body.secret}x`)).to.equal(false);
    expect(verifies(`${delivery!.body} `, signature, created.body.secret)).to.equal(false);

    const [listed] = await deliveriesUntil(
      app,
      account.live,
      created.body.id,
      ([first]) => first?.status === 'succeeded',
    );
    expect(listed).to.include({ event_id: event.id, event_type: 'job.succeeded', attempts: 1, last_status_code: 200 });
    expect(listed!.next_attempt_at).to.equal(null);
    // The secret is in the creation's answer only, and in no event.
    const shown = await request(app, 'GET', `/v1/webhooks/${created.body.id}`, { key: account.live });
    checker.check('GET', '/v1/webhooks/{id}', shown);
    const { secret: _secret, ...withoutSecret } = created.body;
    expect(shown.body).to.deep.equal(withoutSecret);
    expect(JSON.stringify(await app.services.store.readAll())).not.to.contain(created.body.secret);
  });
  it("sends job.failed with the job's failure as problem details", async () => {
    const hooks = await receiver();
    await createEndpoint(app, account.test, { url: hooks.url, events: ['job.failed'] });
    const failing = { ...config(), sector: 'failing', tables: [{ name: 'entries', rows: 10 }] };
    const created = await request(app, 'POST', '/v1/jobs', { key: account.test, body: { config: failing } });
    expect(created.status, created.text).to.equal(202);
    await hooks.next(1);
    const [event] = hooks.events();
    expect(event).to.include({ type: 'job.failed', livemode: false });
    expect(event!.data.object).to.include({ id: created.body.id, state: 'failed', credits_charged: null });
    expect(event!.data.object.failure).to.deep.include({
      type: 'https://errors.finsynth.dev/job-generation-failed',
      status: 500,
      instance: `/v1/jobs/${created.body.id}`,
    });
  });

  it('sends an event again, with the same id, to a receiver that failed and recovered; the list shows the attempts', async () => {
    const hooks = await receiver((index) => ({ status: index < 2 ? 500 : 204 }));
    const endpoint = await createEndpoint(app, account.live, { url: hooks.url, events: ['job.succeeded'] });
    await runJob(app, account.live);
    await hooks.next(3);
    const ids = hooks.events().map((event) => event.id);
    expect(new Set(ids).size).to.equal(1);
    expect(hooks.received.map((received) => received.body)).to.deep.equal(Array(3).fill(hooks.received[0]!.body));
    const [delivery] = await deliveriesUntil(app, account.live, endpoint.id, ([first]) => first?.status !== 'pending');
    expect(delivery).to.include({ status: 'succeeded', attempts: 3, last_status_code: 204, last_error: null });
    const listed = await request(app, 'GET', `/v1/webhooks/${endpoint.id}/deliveries`, { key: account.live });
    checker.check('GET', '/v1/webhooks/{id}/deliveries', listed);
    const attempts = (await app.services.store.readAll()).filter(
      (event) =>
        event.type === 'WebhookDeliveryAttempted' &&
        (event.data as { delivery_id: string }).delivery_id === delivery!.id,
    );
    expect(attempts.map((event) => (event.data as { status_code: number }).status_code)).to.deep.equal([500, 500, 204]);
  });

  it('follows no redirect: a 3xx is a failed attempt, and the place it points to is sent nothing', async () => {
    const elsewhere = await receiver();
    const hooks = await receiver(() => ({ status: 302, headers: { location: elsewhere.url } }));
    const endpoint = await createEndpoint(app, account.live, { url: hooks.url, events: ['job.succeeded'] });
    await runJob(app, account.live);
    await hooks.next(2);
    const [delivery] = await deliveriesUntil(app, account.live, endpoint.id, ([first]) => (first?.attempts ?? 0) >= 2);
    expect(delivery).to.include({ status: 'pending', last_status_code: 302 });
    expect(delivery!.next_attempt_at).to.be.a('string');
    expect(elsewhere.received).to.deep.equal([]);
    await request(app, 'DELETE', `/v1/webhooks/${endpoint.id}`, { key: account.live });
  });

  it('lets neither a job nor requests wait for a receiver that does not answer, and cuts the attempt at its limit', async () => {
    const hooks = await receiver(() => 'hang');
    const endpoint = await createEndpoint(app, account.live, { url: hooks.url, events: ['job.succeeded'] });
    await runJob(app, account.live);
    await hooks.next(1);
    // The receiver holds the first delivery open: a second job still runs to its end, and requests are answered.
    const second = await runJob(app, account.live);
    expect((await pollJob(app, account.live, second, ['succeeded'])).body.state).to.equal('succeeded');
    expect((await request(app, 'GET', '/v1/webhooks', { key: account.live })).status).to.equal(200);
    const [first] = await deliveriesUntil(app, account.live, endpoint.id, (deliveries) =>
      deliveries.some((delivery) => delivery.last_error !== null),
    ).then((deliveries) => deliveries.filter((delivery) => delivery.last_error !== null));
    expect(first!.last_error).to.equal('no answer within 1000 ms');
    expect(first!.last_status_code).to.equal(null);
    await request(app, 'DELETE', `/v1/webhooks/${endpoint.id}`, { key: account.live });
  });

  it('sends credits.low once per crossing of the threshold, to live endpoints only', async () => {
    const owner = await openAccount(app, { credits: 1000 });
    const hooks = await receiver();
    const live = await createEndpoint(app, owner.live, {
      url: hooks.url,
      events: ['credits.low'],
      credits_low_threshold: 500,
    });
    const sandbox = await createEndpoint(app, owner.test, {
      url: hooks.url,
      events: ['credits.low'],
      credits_low_threshold: 500,
    });
    let reference = 0;
    const debit = (credits: number, mode: 'live' | 'test' = 'live') =>
      app.services.credits.debit({
        accountId: owner.accountId,
        mode,
        keyId: null,
        reference: `debit-${(reference += 1)}`,
        operation: 'test',
        sector: 'cards',
        tables: [],
        credits,
      });
    const grant = (amount: number) =>
      app.services.credits.grant({
        accountId: owner.accountId,
        amount,
        reference: `grant-${(reference += 1)}`,
        reason: 'test',
      });
    await debit(600); // 1000 → 400: crosses
    await debit(100); // 300: still below
    await debit(100, 'test'); // moves no credit
    await grant(300); // 600: above again
    await debit(150); // 450: crosses
    await debit(50); // 400: below
    await grant(100); // 500: at the threshold, not below it
    await debit(1); // 499: crosses
    await hooks.next(3);
    const scheduled = await scheduledFor(app, live.id);
    expect(scheduled.map((delivery) => delivery.object.credits_available)).to.deep.equal([400, 450, 499]);
    expect(scheduled.map((delivery) => delivery.event_type)).to.deep.equal(Array(3).fill('credits.low'));
    expect(new Set(scheduled.map((delivery) => delivery.event_id)).size).to.equal(3);
    expect(await scheduledFor(app, sandbox.id)).to.deep.equal([]);
    const event = hooks.events().find((sent) => sent.data.object.credits_available === 499)!;
    expect(event).to.include({ type: 'credits.low', livemode: true });
    expect(event.data.object).to.deep.equal({
      object: 'credit_balance',
      account_id: owner.accountId,
      credits_available: 499,
      credits_low_threshold: 500,
    });
  });

  it('keeps modes apart: a test job goes to test endpoints only, a live job to live ones', async () => {
    const owner = await openAccount(app);
    const liveHooks = await receiver();
    const testHooks = await receiver();
    const live = await createEndpoint(app, owner.live, { url: liveHooks.url, events: ['job.succeeded'] });
    const sandbox = await createEndpoint(app, owner.test, { url: testHooks.url, events: ['job.succeeded'] });
    const testJob = await runJob(app, owner.test);
    const liveJob = await runJob(app, owner.live);
    await Promise.all([liveHooks.next(1), testHooks.next(1)]);
    expect((await scheduledFor(app, live.id)).map((delivery) => delivery.object.id)).to.deep.equal([liveJob]);
    expect((await scheduledFor(app, sandbox.id)).map((delivery) => delivery.object.id)).to.deep.equal([testJob]);
    expect(testHooks.events()[0]).to.include({ livemode: false });
    expect(liveHooks.events()[0]).to.include({ livemode: true });

    const listed = await request(app, 'GET', '/v1/webhooks', { key: owner.test });
    expect(listed.body.data.map((endpoint: JsonBody) => endpoint.id)).to.deep.equal([sandbox.id]);
    for (const [method, path] of [
      ['GET', `/v1/webhooks/${live.id}`],
      ['GET', `/v1/webhooks/${live.id}/deliveries`],
      ['DELETE', `/v1/webhooks/${live.id}`],
    ] as const) {
      const refused = await request(app, method, path, { key: owner.test });
      expect(refused.status, path).to.equal(404);
      expect(refused.body.type).to.equal('https://errors.finsynth.dev/webhook-not-found');
    }
    const stranger = await openAccount(app);
    expect((await request(app, 'GET', `/v1/webhooks/${live.id}`, { key: stranger.live })).status).to.equal(404);
  });

  it('sends a deleted endpoint nothing, and gives up what was still to be sent to it', async () => {
    const owner = await openAccount(app);
    const control = await receiver();
    const gone = await receiver();
    const failing = await receiver(() => ({ status: 503 }));
    const kept = await createEndpoint(app, owner.live, { url: control.url, events: ['job.succeeded'] });
    const deleted = await createEndpoint(app, owner.live, { url: gone.url, events: ['job.succeeded'] });
    const retrying = await createEndpoint(app, owner.live, { url: failing.url, events: ['job.succeeded'] });
    const removed = await request(app, 'DELETE', `/v1/webhooks/${deleted.id}`, { key: owner.live });
    checker.check('DELETE', '/v1/webhooks/{id}', removed);
    expect(removed.body).to.include({ id: deleted.id, status: 'deleted' });
    expect((await request(app, 'DELETE', `/v1/webhooks/${deleted.id}`, { key: owner.live })).status).to.equal(404);

    const jobId = await runJob(app, owner.live);
    await Promise.all([control.next(1), failing.next(1)]);
    // Both deliveries of the job were scheduled together: the deleted endpoint had none.
    expect((await scheduledFor(app, kept.id)).map((delivery) => delivery.object.id)).to.deep.equal([jobId]);
    expect(await scheduledFor(app, deleted.id)).to.deep.equal([]);
    expect(gone.received).to.deep.equal([]);

    await request(app, 'DELETE', `/v1/webhooks/${retrying.id}`, { key: owner.live });
    const [pending] = await scheduledFor(app, retrying.id);
    for (;;) {
      const failed = (await app.services.store.readStream(`webhook-delivery-${pending!.delivery_id}`)).find(
        (event) => event.type === 'WebhookDeliveryFailed',
      );
      if (failed) {
        expect(failed.data).to.include({ reason: 'the endpoint was deleted' });
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  });

  it('lists endpoints newest first, page by page, without secrets; checks scopes and bodies', async () => {
    const owner = await openAccount(app);
    const hooks = await receiver();
    const made: string[] = [];
    for (const description of ['a', 'b', 'c'])
      made.push((await createEndpoint(app, owner.live, { url: hooks.url, events: ['job.failed'], description })).id);
    await request(app, 'DELETE', `/v1/webhooks/${made[1]}`, { key: owner.live });
    const first = await request(app, 'GET', '/v1/webhooks?limit=1', { key: owner.live });
    checker.check('GET', '/v1/webhooks', first);
    expect(first.body.data.map((endpoint: JsonBody) => endpoint.description)).to.deep.equal(['c']);
    expect(first.body.has_more).to.equal(true);
    const second = await request(app, 'GET', `/v1/webhooks?limit=1&cursor=${first.body.next_cursor}`, {
      key: owner.live,
    });
    expect(second.body.data.map((endpoint: JsonBody) => endpoint.description)).to.deep.equal(['a']);
    expect(second.body).to.include({ has_more: false, next_cursor: null });
    expect(first.text + second.text).not.to.contain('whsec_');

    const reader = await request(app, 'POST', '/v1/keys', { key: owner.live, body: { scopes: ['webhooks:read'] } });
    const forbidden = await request(app, 'POST', '/v1/webhooks', {
      key: reader.body.secret,
      body: { url: hooks.url, events: ['job.failed'] },
    });
    expect(forbidden.status).to.equal(403);
    expect(forbidden.body.required_scope).to.equal('webhooks:write');
    expect((await request(app, 'GET', '/v1/webhooks', { key: reader.body.secret })).status).to.equal(200);

    for (const body of [
      { url: hooks.url, events: [] },
      { url: hooks.url, events: ['job.exploded'] },
      { url: hooks.url, events: ['credits.low'] },
      { events: ['job.failed'] },
    ]) {
      const refused = await request(app, 'POST', '/v1/webhooks', { key: owner.live, body });
      checker.check('POST', '/v1/webhooks', refused);
      expect(refused.status, JSON.stringify(body)).to.equal(400);
      expect(refused.body.type).to.equal('https://errors.finsynth.dev/validation-failed');
    }
  });

  it('caps the endpoints of an account per mode', async () => {
    const owner = await openAccount(app);
    const hooks = await receiver();
    for (let made = 0; made < 16; made += 1)
      await createEndpoint(app, owner.test, { url: hooks.url, events: ['job.failed'] });
    const refused = await request(app, 'POST', '/v1/webhooks', {
      key: owner.test,
      body: { url: hooks.url, events: ['job.failed'] },
    });
    checker.check('POST', '/v1/webhooks', refused);
    expect(refused.status).to.equal(409);
    expect(refused.body.type).to.equal('https://errors.finsynth.dev/webhook-endpoint-limit');
    await createEndpoint(app, owner.live, { url: hooks.url, events: ['job.failed'] });
  });

  it('refuses metadata and link-local addresses even where private networks are allowed', async () => {
    for (const url of ['http://169.254.169.254/latest/meta-data', 'http://[fd00:ec2::254]/', 'http://169.254.1.1/']) {
      const refused = await request(app, 'POST', '/v1/webhooks', {
        key: account.live,
        body: { url, events: ['job.failed'] },
      });
      expect(refused.status, url).to.equal(400);
      expect(refused.body.type).to.equal('https://errors.finsynth.dev/webhook-url-refused');
    }
  });
});

describe('webhook URLs where the operator allows no private network', () => {
  let app: TestApp;
  let account: TestAccount;

  before(async () => {
    app = await startTestApp();
    account = await openAccount(app);
  });
  after(() => app.close());

  it('refuses loopback, private, link-local, metadata and special addresses, by name or literally', async () => {
    const checker = new ResponseChecker((await request(app, 'GET', '/v1/openapi.json')).body);
    const receiver = await Receiver.start();
    try {
      const port = new URL(receiver.url).port;
      const refusals: Record<string, RegExp> = {
        [receiver.url]: /127\.0\.0\.1 is a loopback address \(the operator has not allowed private networks\)/,
        [`http://localhost:${port}/hooks`]: /localhost resolves to (127\.0\.0\.1|::1): .*loopback/,
        'http://10.0.0.1/hooks': /private \(RFC 1918\)/,
        'http://192.168.1.20/hooks': /private \(RFC 1918\)/,
        'http://100.64.0.1/hooks': /carrier-grade NAT/,
        'http://169.254.169.254/latest/meta-data/': /cloud metadata address/,
        'http://[fd00:ec2::254]/': /cloud metadata address/,
        'http://[::1]:8080/': /loopback/,
        'http://[::ffff:127.0.0.1]/': /loopback/,
        'http://[fe80::1]/': /link-local/,
        'http://[fc00::1]/': /unique-local/,
        'http://0.0.0.0/': /unspecified/,
        'http://224.0.0.1/': /multicast/,
        'http://255.255.255.255/': /broadcast/,
        'ftp://hooks.example.com/': /the scheme ftp is not http or https/,
        'https://user:pass@hooks.example.com/': /may not carry credentials/,
      };
      for (const [url, reason] of Object.entries(refusals)) {
        const refused = await request(app, 'POST', '/v1/webhooks', {
          key: account.live,
          body: { url, events: ['job.succeeded'] },
        });
        checker.check('POST', '/v1/webhooks', refused);
        expect(refused.status, url).to.equal(400);
        expect(refused.body.type, url).to.equal('https://errors.finsynth.dev/webhook-url-refused');
        expect(refused.body.detail, url).to.match(reason);
        expect(refused.body.errors[0]).to.include({ in: 'body', pointer: '/url' });
      }
      expect((await request(app, 'GET', '/v1/webhooks', { key: account.live })).body.data).to.deep.equal([]);
      expect(receiver.received).to.deep.equal([]);
    } finally {
      await receiver.close();
    }
  });
});

describe('webhooks that give up, and cancelled jobs', () => {
  let app: TestApp;
  let account: TestAccount;

  before(async () => {
    // No runner here: jobs stay queued until cancelled. Retries give up quickly.
    app = await startTestApp({
      config: {
        ...LOCAL_RECEIVERS,
        jobsPerInstance: 0,
        webhookRetryFirstMs: 10,
        webhookRetryMaxMs: 40,
        webhookRetryForMs: 300,
      },
    });
    account = await openAccount(app);
  });
  after(() => app.close());

  it('sends job.cancelled, and marks a delivery failed once retries are past their window', async () => {
    const down = await Receiver.start(() => ({ status: 500 }));
    const up = await Receiver.start();
    try {
      const failing = await createEndpoint(app, account.test, { url: down.url, events: ['job.cancelled'] });
      await createEndpoint(app, account.test, { url: up.url, events: ['job.cancelled', 'job.succeeded'] });
      const created = await request(app, 'POST', '/v1/jobs', { key: account.test, body: { config: config() } });
      const cancelled = await request(app, 'POST', `/v1/jobs/${created.body.id}/cancel`, { key: account.test });
      expect(cancelled.body.state).to.equal('cancelled');
      await up.next(1);
      expect(up.events()[0]).to.deep.include({ type: 'job.cancelled', livemode: false });
      expect(up.events()[0]!.data.object).to.include({ id: created.body.id, state: 'cancelled', started_at: null });

      const [delivery] = await deliveriesUntil(app, account.test, failing.id, ([first]) => first?.status === 'failed');
      expect(delivery).to.include({ last_status_code: 500, next_attempt_at: null });
      expect(delivery!.attempts).to.be.greaterThan(1);
      expect(down.received.length).to.equal(delivery!.attempts);
    } finally {
      await Promise.all([down.close(), up.close()]);
    }
  });
});
