import { expect } from 'chai';
import { systemClock } from '../../../core/clock.js';
import { CommandHandler } from '../../../core/commands/command-handler.js';
import { EventRegistry } from '../../../core/events/registry.js';
import { eventDefinitions } from '../../../core/services/event-definitions.js';
import { MemoryEventStore } from '../../../core/store/memory-store.js';
import { webhookDeliveryDecider, webhookDeliveryStream } from '../../../core/webhooks/delivery.js';
import { WebhookDeliveryLoop } from '../../../core/webhooks/delivery-loop.js';
import { webhookEndpointDecider, webhookEndpointStream } from '../../../core/webhooks/endpoint.js';
import { WebhookSecrets } from '../../../core/webhooks/signing-key.js';
import { verifySignature } from '../../../core/webhooks/signature.js';
import { UrlGuard, type Resolve } from '../../../core/webhooks/url-guard.js';
import { ProjectionRunner } from '../../../projections/runner/projection-runner.js';
import {
  WEBHOOK_DELIVERIES_PROJECTION,
  webhookDeliveriesProjection,
  type WebhookDeliveriesModel,
} from '../../../projections/webhooks/deliveries.js';
import {
  WEBHOOK_ENDPOINTS_PROJECTION,
  webhookEndpointsProjection,
  type WebhookEndpointsModel,
} from '../../../projections/webhooks/endpoints.js';
import { webhooksReadModel } from '../../../projections/webhooks/webhooks-read-model.js';
import { Receiver } from './support/receiver.js';

const secrets = new WebhookSecrets('k'.repeat(64));
const retry = { firstMs: 10, maxMs: 20, forMs: 60_000 };

describe('the webhook delivery loop', () => {
  const registry = new EventRegistry(eventDefinitions);
  let store: MemoryEventStore;
  let runner: ProjectionRunner;
  const loops: WebhookDeliveryLoop[] = [];
  const receivers: Receiver[] = [];

  beforeEach(async () => {
    store = new MemoryEventStore();
    runner = new ProjectionRunner(store, registry, [webhookEndpointsProjection, webhookDeliveriesProjection]);
    await runner.start();
  });
  afterEach(async () => {
    await Promise.all(loops.splice(0).map((loop) => loop.stop()));
    await runner.stop();
    await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
  });

  /** One instance's loop: its own command handler, the shared store and read models. */
  function loop(guard: UrlGuard): WebhookDeliveryLoop {
    const started = new WebhookDeliveryLoop({
      commands: new CommandHandler(store, registry),
      clock: systemClock,
      webhooks: () =>
        webhooksReadModel(
          runner.state<WebhookEndpointsModel>(WEBHOOK_ENDPOINTS_PROJECTION),
          runner.state<WebhookDeliveriesModel>(WEBHOOK_DELIVERIES_PROJECTION),
        ),
      secrets,
      guard,
      retry,
      timeoutMs: 2000,
      concurrency: 4,
      pollMs: 5,
    });
    started.start();
    loops.push(started);
    return started;
  }

  async function endpoint(url: string): Promise<void> {
    await new CommandHandler(store, registry).handle(webhookEndpointDecider, webhookEndpointStream('we_1'), {
      type: 'CreateEndpoint',
      endpoint_id: 'we_1',
      account_id: 'acc_1',
      mode: 'live',
      url,
      events: ['job.succeeded'],
      credits_low_threshold: null,
      description: null,
      at: new Date().toISOString(),
    });
  }

  async function schedule(count: number): Promise<string[]> {
    const commands = new CommandHandler(store, registry);
    const ids: string[] = [];
    for (let index = 0; index < count; index += 1) {
      const id = `wd_${index}`;
      ids.push(id);
      await commands.handle(webhookDeliveryDecider, webhookDeliveryStream(id), {
        type: 'ScheduleDelivery',
        delivery_id: id,
        endpoint_id: 'we_1',
        account_id: 'acc_1',
        mode: 'live',
        event_id: `evt_${index}`,
        event_type: 'job.succeeded',
        created: 1772366400,
        object: { id: `job_${index}` },
        source_event_id: `source-${index}`,
        at: new Date().toISOString(),
      });
    }
    return ids;
  }

  /** The delivery's events once it has one of `types`; the test's timeout bounds the wait. */
  async function until(id: string, type: string) {
    for (;;) {
      const events = await store.readStream(webhookDeliveryStream(id));
      if (events.some((event) => event.type === type)) return events;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  it('makes each attempt once, though two instances look for the same work', async () => {
    const receiver = await Receiver.start();
    receivers.push(receiver);
    await endpoint(receiver.url);
    const ids = await schedule(12);
    const guard = new UrlGuard({ allowPrivateNetworks: true });
    loop(guard);
    loop(guard);
    for (const id of ids) await until(id, 'WebhookDeliverySucceeded');
    expect(
      receiver
        .events()
        .map((event) => event.id)
        .sort(),
    ).to.deep.equal(ids.map((_, index) => `evt_${index}`).sort());
    for (const received of receiver.received)
      expect(
        verifySignature(received.body, String(received.headers['finsynth-signature']), secrets.secretFor('we_1')),
      ).to.equal(true);
    const claims = (await store.readAll()).filter((event) => event.type === 'WebhookDeliveryClaimed');
    expect(claims).to.have.length(12);
  });

  it('checks the URL again at every attempt: a host that now resolves to a refused address is not sent to', async () => {
    const receiver = await Receiver.start();
    receivers.push(receiver);
    const port = new URL(receiver.url).port;
    // Public when the endpoint was created; a private address by the time of the delivery.
    const rebound: Resolve = async () => [{ address: '10.0.0.1', family: 4 }];
    await endpoint(`http://hooks.example:${port}/hooks`);
    const [id] = await schedule(1);
    loop(new UrlGuard({ allowPrivateNetworks: false, resolve: rebound }));
    const events = await until(id!, 'WebhookDeliveryAttempted');
    const attempted = events.find((event) => event.type === 'WebhookDeliveryAttempted')!;
    expect(attempted.data).to.include({ status_code: null });
    expect((attempted.data as { error: string }).error).to.contain('hooks.example resolves to 10.0.0.1');
    expect(receiver.received).to.deep.equal([]);
  });
});
