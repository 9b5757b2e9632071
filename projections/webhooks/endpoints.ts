import type { Mode, RecordedEvent } from '../../core/events/envelope.js';
import { isEventOf } from '../../core/events/event-of.js';
import type { WebhookEventType } from '../../core/webhooks/event-types.js';
import { webhookEndpointEventTypes, type WebhookEndpointEvent } from '../../core/webhooks/events.js';
import type { Projection } from '../runner/projection.js';

export interface EndpointRecord {
  id: string;
  account_id: string;
  mode: Mode;
  url: string;
  events: WebhookEventType[];
  credits_low_threshold: number | null;
  description: string | null;
  created_at: string;
  /** The global position of its creation: endpoints created in the same millisecond still have an order. */
  created_position: number;
  deleted_at: string | null;
}

/** Every webhook endpoint by id, deleted ones kept (a list's cursor may still name one). */
export interface WebhookEndpointsModel {
  byId: Map<string, EndpointRecord>;
}

export const WEBHOOK_ENDPOINTS_PROJECTION = 'webhook-endpoints';

export const webhookEndpointsProjection: Projection<WebhookEndpointsModel> = {
  name: WEBHOOK_ENDPOINTS_PROJECTION,
  version: 1,
  handles: webhookEndpointEventTypes,
  initialState: () => ({ byId: new Map() }),
  apply(state, event: RecordedEvent) {
    if (!isEventOf<WebhookEndpointEvent>(event, webhookEndpointEventTypes)) return state;
    switch (event.type) {
      case 'WebhookEndpointCreated': {
        const { endpoint_id, created_at, ...rest } = event.data;
        state.byId.set(endpoint_id, {
          id: endpoint_id,
          ...rest,
          created_at,
          created_position: event.position,
          deleted_at: null,
        });
        break;
      }
      case 'WebhookEndpointDeleted': {
        const record = state.byId.get(event.data.endpoint_id);
        if (!record) throw new Error(`WebhookEndpointDeleted for unknown endpoint ${event.data.endpoint_id}`);
        record.deleted_at = event.data.deleted_at;
        break;
      }
    }
    return state;
  },
  toJSON(state) {
    return [...state.byId.values()].sort((a, b) => a.created_position - b.created_position);
  },
  fromJSON(json) {
    const records = json as EndpointRecord[];
    return { byId: new Map(records.map((record) => [record.id, record])) };
  },
};

/** The endpoints of one account in one mode, newest first, deleted ones included (for cursors). */
export function ownerEndpoints(state: WebhookEndpointsModel, accountId: string, mode: Mode): EndpointRecord[] {
  return [...state.byId.values()]
    .filter((endpoint) => endpoint.account_id === accountId && endpoint.mode === mode)
    .sort((a, b) => b.created_position - a.created_position);
}

/** The endpoint if it belongs to the owner and is not deleted. */
export function ownerEndpoint(
  state: WebhookEndpointsModel,
  accountId: string,
  mode: Mode,
  endpointId: string,
): EndpointRecord | undefined {
  const endpoint = state.byId.get(endpointId);
  if (!endpoint || endpoint.account_id !== accountId || endpoint.mode !== mode || endpoint.deleted_at) return undefined;
  return endpoint;
}
