import type { components } from '../schema.js';

/** The kinds of event a webhook endpoint may subscribe to. */
export type WebhookEventType =
  'job.succeeded' | 'job.failed' | 'job.cancelled' | 'credits.low' | 'subscription.renewed';

/** A webhook endpoint as listed and retrieved: never with its secret. */
export interface WebhookEndpoint {
  id: string;
  url: string;
  events: WebhookEventType[];
  credits_low_threshold: number | null;
  description: string | null;
  mode: 'live' | 'test';
  /** `deleted` only in the answer to a delete. */
  status: 'enabled' | 'deleted';
  created_at: string;
}

/** The answer to creating an endpoint: the only one that shows its signing secret. */
export interface CreatedWebhookEndpoint extends WebhookEndpoint {
  secret: string;
}

export interface WebhookEndpointInput {
  url: string;
  events: WebhookEventType[];
  credits_low_threshold?: number;
  description?: string;
}

/** The sending of one event to an endpoint, over its attempts. */
export interface WebhookDelivery {
  id: string;
  /** The `id` of the event sent: the same at every attempt. */
  event_id: string;
  event_type: WebhookEventType;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: number;
  last_attempt_at: string | null;
  last_status_code: number | null;
  last_error: string | null;
  next_attempt_at: string | null;
  created_at: string;
}

interface List<T> {
  data: T[];
  has_more: boolean;
  next_cursor: string | null;
}

type NoParameters = { query?: never; header?: never; path?: never; cookie?: never };
type IdParameter = { query?: never; header?: never; path: { id: string }; cookie?: never };
type ListQuery = { limit?: number; cursor?: string };
type Json<T> = { headers: { [name: string]: unknown }; content: { 'application/json': T } };
type Problem = {
  headers: { [name: string]: unknown };
  content: { 'application/problem+json': components['schemas']['Problem'] };
};
type Unused = { put?: never; patch?: never; head?: never; options?: never; trace?: never };

/**
 * The webhook operations in the shape openapi-typescript gives operations, written from the interface the
 * service and this client agree on; used only while the generated document has no webhook operations.
 */
export interface WebhookPaths {
  '/v1/webhooks': Unused & {
    parameters: NoParameters;
    get: {
      parameters: { query?: ListQuery; header?: never; path?: never; cookie?: never };
      requestBody?: never;
      responses: { 200: Json<List<WebhookEndpoint>>; default: Problem };
    };
    post: {
      parameters: { query?: never; header?: { 'Idempotency-Key'?: string }; path?: never; cookie?: never };
      requestBody: { content: { 'application/json': WebhookEndpointInput } };
      responses: { 201: Json<CreatedWebhookEndpoint>; default: Problem };
    };
    delete?: never;
  };
  '/v1/webhooks/{id}': Unused & {
    parameters: IdParameter;
    get: {
      parameters: IdParameter;
      requestBody?: never;
      responses: { 200: Json<WebhookEndpoint>; default: Problem };
    };
    delete: {
      parameters: IdParameter;
      requestBody?: never;
      responses: { 200: Json<WebhookEndpoint>; default: Problem };
    };
    post?: never;
  };
  '/v1/webhooks/{id}/deliveries': Unused & {
    parameters: IdParameter;
    get: {
      parameters: { query?: ListQuery; header?: never; path: { id: string }; cookie?: never };
      requestBody?: never;
      responses: { 200: Json<List<WebhookDelivery>>; default: Problem };
    };
    post?: never;
    delete?: never;
  };
}
