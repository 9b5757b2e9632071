import type { QueryOf } from '../operation-types.js';
import { unwrap, type Requester, type RequestOptions } from '../requester.js';
import { verifyWebhook, type VerifyWebhookOptions, type WebhookEvent } from '../webhooks/verify-webhook.js';
import type { WebhookEndpointInput } from '../webhooks/webhook-types.js';

/** Webhook endpoints: where the service POSTs signed events. */
export class Webhooks {
  constructor(private readonly requester: Requester) {}

  /** Registers an endpoint; the answer's `secret` (`whsec_…`), shown this once, verifies its deliveries. */
  create(body: WebhookEndpointInput, options?: RequestOptions) {
    return unwrap(this.requester.raw.POST('/v1/webhooks', { body, ...this.requester.init(options) }));
  }

  list(params: Omit<QueryOf<'listWebhooks'>, 'cursor'> = {}, options?: RequestOptions) {
    return this.requester.list((cursor) =>
      this.requester.raw.GET('/v1/webhooks', {
        params: { query: { ...params, cursor } },
        ...this.requester.init(options),
      }),
    );
  }

  retrieve(id: string, options?: RequestOptions) {
    const params = { path: { id } };
    return unwrap(this.requester.raw.GET('/v1/webhooks/{id}', { params, ...this.requester.init(options) }));
  }

  delete(id: string, options?: RequestOptions) {
    const params = { path: { id } };
    return unwrap(this.requester.raw.DELETE('/v1/webhooks/{id}', { params, ...this.requester.init(options) }));
  }

  /** The delivery attempts to an endpoint, page after page. */
  deliveries(id: string, params: Omit<QueryOf<'listWebhookDeliveries'>, 'cursor'> = {}, options?: RequestOptions) {
    return this.requester.list((cursor) =>
      this.requester.raw.GET('/v1/webhooks/{id}/deliveries', {
        params: { path: { id }, query: { ...params, cursor } },
        ...this.requester.init(options),
      }),
    );
  }

  /** Checks a delivery's signature and returns its event (see verifyWebhook). */
  verify(
    rawBody: string | Uint8Array,
    signatureHeader: string | null | undefined,
    secret: string,
    options?: VerifyWebhookOptions,
  ): WebhookEvent {
    return verifyWebhook(rawBody, signatureHeader, secret, options);
  }
}
