import { expect } from 'chai';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { Finsynth, NotFoundError, verifyWebhook } from '../../../clients/typescript/src/index.js';
import { openAccount, startTestApp, type TestAccount, type TestApp } from '../../support/app.js';

/** One delivery as a receiver gets it: the raw bytes, before any parsing, and the headers. */
interface Received {
  body: Buffer;
  headers: IncomingHttpHeaders;
}

/** An HTTP receiver on 127.0.0.1 that answers 204 to every delivery and keeps them. */
async function startReceiver(): Promise<{ url: string; received: Received[]; close(): Promise<void> }> {
  const received: Received[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ body: Buffer.concat(chunks), headers: request.headers });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the receiver has no port');
  return {
    url: `http://127.0.0.1:${address.port}/hooks`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Waits until `ready` holds; bounded by the test's timeout: this proves the outcome, not its speed. */
async function until<T>(read: () => Promise<T> | T, ready: (value: T) => boolean): Promise<T> {
  for (;;) {
    const value = await read();
    if (ready(value)) return value;
    await sleep(20);
  }
}

describe('@finsynth/client: webhook endpoints', function () {
  this.timeout(60_000);
  let app: TestApp;
  let account: TestAccount;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  before(async () => {
    // The receiver listens on 127.0.0.1, which only the operator's setting lets deliveries go to.
    app = await startTestApp({ config: { webhooksAllowPrivateNetworks: true, webhookRetryFirstMs: 20 } });
    account = await openAccount(app);
    receiver = await startReceiver();
  });
  after(async () => {
    await receiver?.close();
    await app?.close();
  });

  it('registers an endpoint, whose signed deliveries verifyWebhook accepts, then lists and deletes it', async () => {
    const finsynth = new Finsynth({ apiKey: account.test, baseUrl: app.url });
    const endpoint = await finsynth.webhooks.create({ url: receiver.url, events: ['job.succeeded'] });
    expect(endpoint).to.include({ url: receiver.url, mode: 'test', status: 'enabled' });
    expect(endpoint.secret).to.match(/^whsec_/);
    const { secret, ...shown } = endpoint;
    expect(await finsynth.webhooks.retrieve(endpoint.id)).to.deep.equal(shown);
    expect((await finsynth.webhooks.list().toArray()).map((each) => each.id)).to.deep.equal([endpoint.id]);

    const created = await finsynth.jobs.create({
      config: { version: 1, sector: 'cards', seed: 7, tables: [{ name: 'cardholders', rows: 10 }] },
    });
    expect((await finsynth.jobs.wait(created.id, { intervalMs: 50 })).state).to.equal('succeeded');
    const [delivery] = await until(
      () => receiver.received,
      (received) => received.length > 0,
    );
    expect(delivery!.headers['content-type']).to.match(/^application\/json/);
    const event = verifyWebhook(delivery!.body, String(delivery!.headers['finsynth-signature']), secret);
    expect(event).to.include({ type: 'job.succeeded', livemode: false });
    expect(event.data.object).to.include({ id: created.id });
    expect(delivery!.headers['finsynth-event-id']).to.equal(event.id);
    expect(() =>
      verifyWebhook(delivery!.body, String(delivery!.headers['finsynth-signature']), 'whsec_wrong'),
    ).to.throw();

    const deliveries = await until(
      () => finsynth.webhooks.deliveries(endpoint.id).toArray(),
      (listed) => listed.some((each) => each.status === 'succeeded'),
    );
    expect(deliveries.map((each) => each.event_id)).to.deep.equal([event.id]);

    const deleted = await finsynth.webhooks.delete(endpoint.id);
    expect(deleted).to.include({ id: endpoint.id, status: 'deleted' });
    const missing = await finsynth.webhooks.retrieve(endpoint.id).catch((error: unknown) => error);
    expect(missing).to.be.instanceOf(NotFoundError);
  });
});
