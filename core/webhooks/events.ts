import type { DomainEvent } from '../commands/decider.js';
import type { Mode } from '../events/envelope.js';
import type { EventDefinition } from '../events/registry.js';
import type { JsonSchema } from '../json-schema.js';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from './event-types.js';

/**
 * An endpoint holds no secret: its signing secret is derived from the instance's signing key and the
 * endpoint id (secrets.ts), so the events that auditors read never carry one.
 */
export type WebhookEndpointCreated = DomainEvent<
  'WebhookEndpointCreated',
  {
    endpoint_id: string;
    account_id: string;
    mode: Mode;
    url: string;
    events: WebhookEventType[];
    credits_low_threshold: number | null;
    description: string | null;
    created_at: string;
  }
>;
export type WebhookEndpointDeleted = DomainEvent<'WebhookEndpointDeleted', { endpoint_id: string; deleted_at: string }>;
export type WebhookEndpointEvent = WebhookEndpointCreated | WebhookEndpointDeleted;

/**
 * One event for one endpoint. `event_id` and `created` are derived from the source event, so every
 * retry sends the same `id` (receivers de-duplicate on it) and the same body.
 */
export type WebhookDeliveryScheduled = DomainEvent<
  'WebhookDeliveryScheduled',
  {
    delivery_id: string;
    endpoint_id: string;
    account_id: string;
    mode: Mode;
    event_id: string;
    event_type: WebhookEventType;
    /** Unix seconds: when the source event was recorded. */
    created: number;
    /** The body's `data.object`. */
    object: Record<string, unknown>;
    /** The id of the stored event that caused it. */
    source_event_id: string;
    scheduled_at: string;
  }
>;
/** An instance took the next attempt: until `lease_expires_at` no other instance sends it. */
export type WebhookDeliveryClaimed = DomainEvent<
  'WebhookDeliveryClaimed',
  { delivery_id: string; attempt: number; instance_id: string; claimed_at: string; lease_expires_at: string }
>;
/** One attempt's outcome: the receiver's status code, or why there was none; when the next one is due. */
export type WebhookDeliveryAttempted = DomainEvent<
  'WebhookDeliveryAttempted',
  {
    delivery_id: string;
    attempt: number;
    at: string;
    status_code: number | null;
    error: string | null;
    duration_ms: number;
    next_attempt_at: string | null;
  }
>;
export type WebhookDeliverySucceeded = DomainEvent<
  'WebhookDeliverySucceeded',
  { delivery_id: string; attempts: number; succeeded_at: string }
>;
/** Given up: the retry window passed, or the endpoint was deleted. */
export type WebhookDeliveryFailed = DomainEvent<
  'WebhookDeliveryFailed',
  { delivery_id: string; attempts: number; failed_at: string; reason: string }
>;
export type WebhookDeliveryEvent =
  | WebhookDeliveryScheduled
  | WebhookDeliveryClaimed
  | WebhookDeliveryAttempted
  | WebhookDeliverySucceeded
  | WebhookDeliveryFailed;

const id = { type: 'string', minLength: 1, maxLength: 200 };
const time = { type: 'string', format: 'date-time' };
const nullableTime = { type: ['string', 'null'], format: 'date-time' };
const count = { type: 'integer', minimum: 0 };
const attempt = { type: 'integer', minimum: 1 };
const text = { type: 'string', maxLength: 500 };
const mode = { enum: ['live', 'test'] };
const eventType = { enum: [...WEBHOOK_EVENT_TYPES] };

function object(properties: Record<string, JsonSchema>): JsonSchema {
  return { type: 'object', required: Object.keys(properties), properties, additionalProperties: false };
}

type WebhookEvent = WebhookEndpointEvent | WebhookDeliveryEvent;

function definition(type: WebhookEvent['type'], schema: JsonSchema): EventDefinition<WebhookEvent['type']> {
  return { type, version: 1, schema };
}

export const webhookEvents: readonly EventDefinition<WebhookEvent['type']>[] = [
  definition(
    'WebhookEndpointCreated',
    object({
      endpoint_id: id,
      account_id: id,
      mode,
      url: { type: 'string', minLength: 1, maxLength: 2048 },
      events: { type: 'array', items: eventType, minItems: 1, uniqueItems: true },
      credits_low_threshold: { type: ['integer', 'null'], minimum: 0 },
      description: { type: ['string', 'null'], maxLength: 500 },
      created_at: time,
    }),
  ),
  definition('WebhookEndpointDeleted', object({ endpoint_id: id, deleted_at: time })),
  definition(
    'WebhookDeliveryScheduled',
    object({
      delivery_id: id,
      endpoint_id: id,
      account_id: id,
      mode,
      event_id: id,
      event_type: eventType,
      created: count,
      object: { type: 'object' },
      source_event_id: id,
      scheduled_at: time,
    }),
  ),
  definition(
    'WebhookDeliveryClaimed',
    object({ delivery_id: id, attempt, instance_id: id, claimed_at: time, lease_expires_at: time }),
  ),
  definition(
    'WebhookDeliveryAttempted',
    object({
      delivery_id: id,
      attempt,
      at: time,
      status_code: { type: ['integer', 'null'], minimum: 100, maximum: 999 },
      error: { type: ['string', 'null'], maxLength: 500 },
      duration_ms: count,
      next_attempt_at: nullableTime,
    }),
  ),
  definition('WebhookDeliverySucceeded', object({ delivery_id: id, attempts: attempt, succeeded_at: time })),
  definition('WebhookDeliveryFailed', object({ delivery_id: id, attempts: count, failed_at: time, reason: text })),
];

export const webhookEndpointEventTypes: readonly WebhookEndpointEvent['type'][] = [
  'WebhookEndpointCreated',
  'WebhookEndpointDeleted',
];
export const webhookDeliveryEventTypes: readonly WebhookDeliveryEvent['type'][] = [
  'WebhookDeliveryScheduled',
  'WebhookDeliveryClaimed',
  'WebhookDeliveryAttempted',
  'WebhookDeliverySucceeded',
  'WebhookDeliveryFailed',
];
