import type { Clock } from '../clock.js';
import type { CommandHandler } from '../commands/command-handler.js';
import type { EventMetadata, Mode } from '../events/envelope.js';
import { Problems, problem } from '../problems.js';
import { webhookEndpointDecider, webhookEndpointStream } from './endpoint.js';
import { MAX_ENDPOINTS_PER_MODE, type WebhookEventType } from './event-types.js';
import { newEndpointId } from './ids.js';
import type { WebhooksReadModel } from './ports.js';
import { WebhookProblems } from './problems.js';
import type { WebhookSecrets } from './signing-key.js';
import type { UrlGuard } from './url-guard.js';

export interface WebhooksServiceDeps {
  commands: CommandHandler;
  clock: Clock;
  guard: UrlGuard;
  /** The signing key, read (or created) on first use. */
  secrets: () => Promise<WebhookSecrets>;
  /** The webhooks read model as it is now. */
  webhooks: () => WebhooksReadModel;
}

export interface CreateEndpointRequest {
  accountId: string;
  mode: Mode;
  url: string;
  events: WebhookEventType[];
  creditsLowThreshold: number | null;
  description: string | null;
  metadata?: EventMetadata;
}

export interface CreatedEndpoint {
  endpointId: string;
  /** Shown to the caller once: it is derived again when signing, never stored. */
  secret: string;
  position: number;
}

/** Webhook endpoints as the API manages them: each is a stream of its own, written through its decider. */
export class WebhooksService {
  constructor(private readonly deps: WebhooksServiceDeps) {}

  /**
   * Refuses a URL that may not be sent to (checked after resolving its host), and a `credits.low`
   * subscription without its threshold; the account's endpoints per mode are capped (counted on the read
   * model: two creations at the same instant may both pass, which the cap tolerates).
   */
  async create(request: CreateEndpointRequest): Promise<CreatedEndpoint> {
    if (request.events.includes('credits.low') && request.creditsLowThreshold === null) {
      const message = 'credits.low needs a credits_low_threshold';
      throw problem(Problems.validation, message, {
        errors: [{ in: 'body', pointer: '/credits_low_threshold', message }],
      });
    }
    const active = this.deps.webhooks().activeEndpoints(request.accountId, request.mode);
    if (active >= MAX_ENDPOINTS_PER_MODE)
      throw problem(WebhookProblems.limitReached, `the account has ${active} ${request.mode} webhook endpoints`);
    const checked = await this.deps.guard.check(request.url);
    const secrets = await this.deps.secrets();
    const endpointId = newEndpointId();
    const result = await this.deps.commands.handle(
      webhookEndpointDecider,
      webhookEndpointStream(endpointId),
      {
        type: 'CreateEndpoint',
        endpoint_id: endpointId,
        account_id: request.accountId,
        mode: request.mode,
        url: checked.url.href,
        events: request.events,
        credits_low_threshold: request.creditsLowThreshold,
        description: request.description,
        at: this.deps.clock.now().toISOString(),
      },
      { metadata: request.metadata },
    );
    return { endpointId, secret: secrets.secretFor(endpointId), position: result.position };
  }

  /** Deliveries not yet made to it are given up; nothing is scheduled for it any more. */
  async delete(
    accountId: string,
    mode: Mode,
    endpointId: string,
    metadata?: EventMetadata,
  ): Promise<{ position: number }> {
    const result = await this.deps.commands.handle(
      webhookEndpointDecider,
      webhookEndpointStream(endpointId),
      { type: 'DeleteEndpoint', endpointId, accountId, mode, at: this.deps.clock.now().toISOString() },
      { metadata },
    );
    return { position: result.position };
  }
}
