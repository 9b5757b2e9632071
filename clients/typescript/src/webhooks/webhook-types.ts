import type { AnswerOf, JsonBodyOf } from '../operation-types.js';

/** What registering an endpoint takes: `{ url, events, credits_low_threshold?, description? }`. */
export type WebhookEndpointInput = JsonBodyOf<'createWebhook'>;

/** The kinds of event an endpoint may subscribe to. */
export type WebhookEventType = WebhookEndpointInput['events'][number];

/** An endpoint as listed and retrieved: never with its secret. */
export type WebhookEndpoint = AnswerOf<'getWebhook'>;

/** The answer to registering an endpoint: the only one that shows its signing secret. */
export type CreatedWebhookEndpoint = AnswerOf<'createWebhook'>;

/** The sending of one event to an endpoint, over its attempts. */
export type WebhookDelivery = AnswerOf<'listWebhookDeliveries'>['data'][number];
