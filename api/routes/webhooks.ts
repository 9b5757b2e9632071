import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../../core/webhooks/event-types.js';
import { WebhookProblems } from '../../core/webhooks/problems.js';
import { MAX_URL_LENGTH } from '../../core/webhooks/url-guard.js';
import { problem } from '../../core/problems.js';
import {
  WEBHOOK_ENDPOINTS_PROJECTION,
  ownerEndpoint,
  ownerEndpoints,
  type EndpointRecord,
  type WebhookEndpointsModel,
} from '../../projections/webhooks/endpoints.js';
import {
  WEBHOOK_DELIVERIES_PROJECTION,
  endpointDeliveries,
  type DeliveryRecord,
  type WebhookDeliveriesModel,
} from '../../projections/webhooks/deliveries.js';
import type { ApiContext } from '../http/context.js';
import { paginate } from '../http/pagination.js';
import { defineRoute, type RouteGroup } from '../http/route.js';
import { listQuery, pageSchema, type ListQuery } from '../http/schemas.js';

const time = { type: 'string', format: 'date-time' };
const nullableTime = { type: ['string', 'null'], format: 'date-time' };
const endpointId = {
  type: 'string',
  minLength: 1,
  maxLength: 64,
  pattern: '^we_[0-9a-f]+$',
  examples: ['we_5f0c2a9e41d7b3c86a1e0f2d'],
};
const eventTypes = {
  type: 'array',
  items: { type: 'string', enum: [...WEBHOOK_EVENT_TYPES] },
  minItems: 1,
  maxItems: WEBHOOK_EVENT_TYPES.length,
  uniqueItems: true,
};

const endpointSchema = {
  type: 'object',
  required: ['id', 'url', 'events', 'credits_low_threshold', 'description', 'mode', 'status', 'created_at'],
  additionalProperties: false,
  properties: {
    id: { type: 'string', examples: ['we_5f0c2a9e41d7b3c86a1e0f2d'] },
    url: { type: 'string', format: 'uri' },
    events: eventTypes,
    credits_low_threshold: { type: ['integer', 'null'], minimum: 0 },
    description: { type: ['string', 'null'] },
    mode: { enum: ['live', 'test'] },
    status: { enum: ['enabled', 'deleted'], description: '`deleted` only in the answer to DELETE.' },
    created_at: time,
  },
};

const createdEndpointSchema = {
  ...endpointSchema,
  required: [...endpointSchema.required, 'secret'],
  properties: {
    ...endpointSchema.properties,
    secret: {
      type: 'string',
      pattern: '^whsec_',
      description: 'Signs every delivery (`Finsynth-Signature`): shown in this response only.',
    },
  },
};

const deliverySchema = {
  type: 'object',
  required: [
    'id',
    'event_id',
    'event_type',
    'status',
    'attempts',
    'last_attempt_at',
    'last_status_code',
    'last_error',
    'next_attempt_at',
    'created_at',
  ],
  additionalProperties: false,
  properties: {
    id: { type: 'string', examples: ['wd_9b1f4c2e7a0d3f5b8c6e1a2d4f7b9c0e'] },
    event_id: { type: 'string', description: 'The `id` of the event sent: the same at every attempt.' },
    event_type: { enum: [...WEBHOOK_EVENT_TYPES] },
    status: {
      enum: ['pending', 'succeeded', 'failed'],
      description: '`pending` until an attempt is answered 2xx (`succeeded`) or retries give up (`failed`).',
    },
    attempts: { type: 'integer', minimum: 0 },
    last_attempt_at: nullableTime,
    last_status_code: {
      type: ['integer', 'null'],
      description: "The last attempt's HTTP status, if it had an answer.",
    },
    last_error: { type: ['string', 'null'], description: 'Why the last attempt had no answer (refused, timed out).' },
    next_attempt_at: { ...nullableTime, description: 'When the next attempt is due; null once it is finished.' },
    created_at: time,
  },
};

type EndpointStatus = 'enabled' | 'deleted';

function endpointView(endpoint: EndpointRecord, status: EndpointStatus = 'enabled') {
  return {
    id: endpoint.id,
    url: endpoint.url,
    events: endpoint.events,
    credits_low_threshold: endpoint.credits_low_threshold,
    description: endpoint.description,
    mode: endpoint.mode,
    status,
    created_at: endpoint.created_at,
  };
}

function deliveryView(delivery: DeliveryRecord) {
  return {
    id: delivery.id,
    event_id: delivery.event_id,
    event_type: delivery.event_type,
    status: delivery.status,
    attempts: delivery.attempts,
    last_attempt_at: delivery.last_attempt_at,
    last_status_code: delivery.last_status_code,
    last_error: delivery.last_error,
    next_attempt_at: delivery.next_attempt_at,
    created_at: delivery.created_at,
  };
}

const endpoints = (ctx: ApiContext) =>
  ctx.services.projections.state<WebhookEndpointsModel>(WEBHOOK_ENDPOINTS_PROJECTION);

function metadataOf(ctx: ApiContext) {
  return { request_id: ctx.state.requestId, key_id: ctx.state.auth.keyId, mode: ctx.state.auth.mode };
}

/** The owner's endpoint; the 404 every read and the delete answer for another's, the other mode's or a deleted one. */
function requireEndpoint(ctx: ApiContext, id: string): EndpointRecord {
  const { accountId, mode } = ctx.state.auth;
  const endpoint = ownerEndpoint(endpoints(ctx), accountId, mode, id);
  if (!endpoint) throw problem(WebhookProblems.notFound, `no webhook endpoint ${id}`);
  return endpoint;
}

interface CreateBody {
  url: string;
  events: WebhookEventType[];
  credits_low_threshold?: number;
  description?: string;
}

/**
 * Webhook endpoints of the account, per mode as every object is: a test key creates and sees test endpoints,
 * which are sent test jobs' events only. Deliveries are made in the background (docs/webhooks.md).
 */
export const webhooksRoutes: RouteGroup = {
  tag: 'Webhooks',
  description:
    'Endpoints that are sent signed events (jobs ending, credits running low, renewals), and their deliveries.',
  routes: [
    defineRoute<Record<string, never>, Record<string, never>, CreateBody>({
      method: 'POST',
      path: '/v1/webhooks',
      operationId: 'createWebhook',
      summary: 'Create a webhook endpoint',
      description:
        'Registers a URL to be sent the events listed, in the mode of the key asking. The URL must be http(s), ' +
        'without credentials, and its host must resolve to public addresses only (checked again at every ' +
        'delivery). `credits_low_threshold` is required with `credits.low`: the event is sent when the ' +
        'available live credits fall below it. The signing secret is in this response only.',
      scope: 'webhooks:write',
      secretResponse: true,
      body: {
        required: true,
        content: {
          'application/json': {
            type: 'object',
            required: ['url', 'events'],
            additionalProperties: false,
            properties: {
              url: {
                type: 'string',
                minLength: 1,
                maxLength: MAX_URL_LENGTH,
                examples: ['https://example.com/finsynth/webhooks'],
              },
              events: { ...eventTypes, examples: [['job.succeeded', 'job.failed']] },
              credits_low_threshold: { type: 'integer', minimum: 0, maximum: 1_000_000_000_000, examples: [1000] },
              description: { type: 'string', maxLength: 500, examples: ['nightly export finished'] },
            },
          },
        },
      },
      responses: {
        201: {
          description: 'The endpoint, with its signing secret.',
          content: { 'application/json': createdEndpointSchema },
        },
      },
      problems: [WebhookProblems.urlRefused, WebhookProblems.limitReached],
      async handle(ctx, { body }) {
        const { accountId, mode } = ctx.state.auth;
        const created = await ctx.services.webhooks.create({
          accountId,
          mode,
          url: body.url,
          events: body.events,
          creditsLowThreshold: body.credits_low_threshold ?? null,
          description: body.description ?? null,
          metadata: metadataOf(ctx),
        });
        await ctx.services.projections.waitFor(created.position);
        const endpoint = endpoints(ctx).byId.get(created.endpointId)!;
        ctx.status = 201;
        ctx.body = { ...endpointView(endpoint), secret: created.secret };
      },
    }),
    defineRoute<Record<string, never>, ListQuery>({
      method: 'GET',
      path: '/v1/webhooks',
      operationId: 'listWebhooks',
      summary: 'List webhook endpoints',
      description: 'Endpoints of the account in the mode of the key asking, newest first. Never their secrets.',
      scope: 'webhooks:read',
      query: listQuery,
      responses: {
        200: { description: 'A page of endpoints.', content: { 'application/json': pageSchema(endpointSchema) } },
      },
      handle(ctx, { query }) {
        const { accountId, mode } = ctx.state.auth;
        const owned = ownerEndpoints(endpoints(ctx), accountId, mode);
        const page = paginate(
          owned,
          (endpoint) => endpoint.id,
          query,
          (endpoint) => endpoint.deleted_at === null,
        );
        ctx.body = { ...page, data: page.data.map((endpoint) => endpointView(endpoint)) };
      },
    }),
    defineRoute<{ id: string }>({
      method: 'GET',
      path: '/v1/webhooks/{id}',
      operationId: 'getWebhook',
      summary: 'Get a webhook endpoint',
      scope: 'webhooks:read',
      params: { id: endpointId },
      responses: { 200: { description: 'The endpoint.', content: { 'application/json': endpointSchema } } },
      problems: [WebhookProblems.notFound],
      handle(ctx, { params }) {
        ctx.body = endpointView(requireEndpoint(ctx, params.id));
      },
    }),
    defineRoute<{ id: string }>({
      method: 'DELETE',
      path: '/v1/webhooks/{id}',
      operationId: 'deleteWebhook',
      summary: 'Delete a webhook endpoint',
      description:
        'Nothing more is sent to it, retries of earlier events included; it is gone from the list ' +
        'and its deliveries with it. Deleting it again answers 404.',
      scope: 'webhooks:write',
      params: { id: endpointId },
      responses: {
        200: { description: 'The endpoint, `status: deleted`.', content: { 'application/json': endpointSchema } },
      },
      problems: [WebhookProblems.notFound],
      async handle(ctx, { params }) {
        const { accountId, mode } = ctx.state.auth;
        const endpoint = requireEndpoint(ctx, params.id);
        const { position } = await ctx.services.webhooks.delete(accountId, mode, params.id, metadataOf(ctx));
        await ctx.services.projections.waitFor(position);
        ctx.body = endpointView(endpoint, 'deleted');
      },
    }),
    defineRoute<{ id: string }, ListQuery>({
      method: 'GET',
      path: '/v1/webhooks/{id}/deliveries',
      operationId: 'listWebhookDeliveries',
      summary: "List an endpoint's deliveries",
      description:
        "One per event sent to the endpoint, newest first: its status, attempts, the last attempt's " +
        'HTTP status or error, and when the next attempt is due.',
      scope: 'webhooks:read',
      params: { id: endpointId },
      query: listQuery,
      responses: {
        200: { description: 'A page of deliveries.', content: { 'application/json': pageSchema(deliverySchema) } },
      },
      problems: [WebhookProblems.notFound],
      handle(ctx, { params, query }) {
        const endpoint = requireEndpoint(ctx, params.id);
        const deliveries = ctx.services.projections.state<WebhookDeliveriesModel>(WEBHOOK_DELIVERIES_PROJECTION);
        const page = paginate(endpointDeliveries(deliveries, endpoint.id), (delivery) => delivery.id, query);
        ctx.body = { ...page, data: page.data.map(deliveryView) };
      },
    }),
  ],
};
