import type { Clock } from '../clock.js';
import type { CommandHandler } from '../commands/command-handler.js';
import type { EventRegistry } from '../events/registry.js';
import type { Config } from '../settings/settings.js';
import type { EventStore } from '../store/event-store.js';
import { WebhookDeliveryLoop } from './delivery-loop.js';
import type { SchedulerCheckpoints, WebhooksReadModel } from './ports.js';
import { WebhookScheduler } from './scheduler.js';
import { WebhooksService } from './service.js';
import { loadSigningKey, type WebhookSecrets } from './signing-key.js';
import { UrlGuard } from './url-guard.js';

export { WebhooksService } from './service.js';

export interface WebhooksDeps {
  config: Config;
  clock: Clock;
  store: EventStore;
  registry: EventRegistry;
  commands: CommandHandler;
  /** The webhooks read model as it is now. */
  webhooks: () => WebhooksReadModel;
  checkpoints: SchedulerCheckpoints;
  onError?: (error: unknown) => void;
}

/** One instance's webhooks: the service the API calls, and the background work (scheduling, sending) it starts. */
export interface Webhooks {
  service: WebhooksService;
  /** Reads (or creates) the signing key, then starts the scheduler and the delivery loop. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

export function createWebhooks(deps: WebhooksDeps): Webhooks {
  const { config } = deps;
  const guard = new UrlGuard({
    allowPrivateNetworks: config.webhooksAllowPrivateNetworks,
    resolveTimeoutMs: Math.min(5000, config.webhookTimeoutMs),
  });
  let loaded: Promise<WebhookSecrets> | undefined;
  const secrets = () => {
    // A failed read (a key file unreadable for now) is tried again by the next caller.
    loaded ??= loadSigningKey(config.webhookSigningKeyFile).catch((error: unknown) => {
      loaded = undefined;
      throw error;
    });
    return loaded;
  };
  const service = new WebhooksService({ ...deps, guard, secrets });
  const scheduler = new WebhookScheduler({ ...deps, errorTypeBase: config.errorTypeBase });
  let loop: WebhookDeliveryLoop | undefined;
  return {
    service,
    async start() {
      const signing = await secrets();
      await scheduler.start();
      loop = new WebhookDeliveryLoop({
        ...deps,
        secrets: signing,
        guard,
        retry: {
          firstMs: config.webhookRetryFirstMs,
          maxMs: config.webhookRetryMaxMs,
          forMs: config.webhookRetryForMs,
        },
        timeoutMs: config.webhookTimeoutMs,
        concurrency: config.webhookDeliveriesAtOnce,
      });
      loop.start();
    },
    async stop() {
      await loop?.stop();
      await scheduler.stop();
    },
  };
}
