import type { Mode, RecordedEvent } from '../../core/events/envelope.js';
import { isEventOf } from '../../core/events/event-of.js';
import type { DeliveryStatus } from '../../core/webhooks/delivery.js';
import type { WebhookEventType } from '../../core/webhooks/event-types.js';
import {
  webhookDeliveryEventTypes,
  type WebhookDeliveryEvent,
  type WebhookEndpointDeleted,
} from '../../core/webhooks/events.js';
import type { Projection } from '../runner/projection.js';

export interface DeliveryRecord {
  id: string;
  endpoint_id: string;
  mode: Mode;
  event_id: string;
  event_type: WebhookEventType;
  status: DeliveryStatus;
  /** Attempts whose outcome is recorded. */
  attempts: number;
  created_at: string;
  /** The global position of its scheduling: the order of an endpoint's deliveries. */
  created_position: number;
  last_attempt_at: string | null;
  last_status_code: number | null;
  last_error: string | null;
  next_attempt_at: string | null;
  /** While an instance holds the next attempt: no other instance tries it before then. */
  claim_expires_at: string | null;
  failure_reason: string | null;
}

/**
 * The deliveries kept by id, each endpoint's in the order scheduled, and the pending ones: what the deliveries
 * list shows and where the delivery loops find their work. An endpoint keeps its newest KEPT_FINISHED finished
 * deliveries and every pending one; a deleted endpoint keeps none, its pending ones dropped as they are given up.
 */
export interface WebhookDeliveriesModel {
  byId: Map<string, DeliveryRecord>;
  byEndpoint: Map<string, string[]>;
  pending: Set<string>;
  /** Deleted endpoints that still have deliveries pending. */
  deleted: Set<string>;
}

/** Finished deliveries an endpoint's list keeps, the newest: the read model stays bounded however long it runs. */
export const KEPT_FINISHED = 1000;

export const WEBHOOK_DELIVERIES_PROJECTION = 'webhook-deliveries';

const handledTypes: readonly string[] = [...webhookDeliveryEventTypes, 'WebhookEndpointDeleted'];

/** Drops an endpoint's oldest finished deliveries past KEPT_FINISHED, or all once the endpoint is deleted. */
function trim(state: WebhookDeliveriesModel, endpointId: string): void {
  const ids = state.byEndpoint.get(endpointId);
  if (!ids) return;
  const kept = state.deleted.has(endpointId) ? 0 : KEPT_FINISHED;
  let finished = ids.length - ids.filter((id) => state.pending.has(id)).length;
  if (finished <= kept) return;
  const remaining: string[] = [];
  for (const id of ids) {
    if (finished > kept && !state.pending.has(id)) {
      state.byId.delete(id);
      finished--;
    } else remaining.push(id);
  }
  if (remaining.length > 0) state.byEndpoint.set(endpointId, remaining);
  else {
    state.byEndpoint.delete(endpointId);
    state.deleted.delete(endpointId);
  }
}

function record(state: WebhookDeliveriesModel, id: string): DeliveryRecord {
  const found = state.byId.get(id);
  if (!found) throw new Error(`event for unknown webhook delivery ${id}`);
  return found;
}

export const webhookDeliveriesProjection: Projection<WebhookDeliveriesModel> = {
  name: WEBHOOK_DELIVERIES_PROJECTION,
  version: 2,
  handles: handledTypes,
  initialState: () => ({ byId: new Map(), byEndpoint: new Map(), pending: new Set(), deleted: new Set() }),
  apply(state, event: RecordedEvent) {
    if (isEventOf<WebhookEndpointDeleted>(event, ['WebhookEndpointDeleted'])) {
      const { endpoint_id } = event.data;
      if (state.byEndpoint.has(endpoint_id)) {
        state.deleted.add(endpoint_id);
        trim(state, endpoint_id);
      }
      return state;
    }
    if (!isEventOf<WebhookDeliveryEvent>(event, webhookDeliveryEventTypes)) return state;
    switch (event.type) {
      case 'WebhookDeliveryScheduled': {
        const { delivery_id, endpoint_id, mode, event_id, event_type, scheduled_at } = event.data;
        state.byId.set(delivery_id, {
          id: delivery_id,
          endpoint_id,
          mode,
          event_id,
          event_type,
          status: 'pending',
          attempts: 0,
          created_at: scheduled_at,
          created_position: event.position,
          last_attempt_at: null,
          last_status_code: null,
          last_error: null,
          next_attempt_at: scheduled_at,
          claim_expires_at: null,
          failure_reason: null,
        });
        const ids = state.byEndpoint.get(endpoint_id) ?? [];
        ids.push(delivery_id);
        state.byEndpoint.set(endpoint_id, ids);
        state.pending.add(delivery_id);
        break;
      }
      case 'WebhookDeliveryClaimed':
        record(state, event.data.delivery_id).claim_expires_at = event.data.lease_expires_at;
        break;
      case 'WebhookDeliveryAttempted': {
        const delivery = record(state, event.data.delivery_id);
        delivery.attempts = event.data.attempt;
        delivery.last_attempt_at = event.data.at;
        delivery.last_status_code = event.data.status_code;
        delivery.last_error = event.data.error;
        delivery.next_attempt_at = event.data.next_attempt_at;
        delivery.claim_expires_at = null;
        break;
      }
      case 'WebhookDeliverySucceeded':
      case 'WebhookDeliveryFailed': {
        const delivery = record(state, event.data.delivery_id);
        delivery.status = event.type === 'WebhookDeliverySucceeded' ? 'succeeded' : 'failed';
        delivery.next_attempt_at = null;
        delivery.claim_expires_at = null;
        if (event.type === 'WebhookDeliveryFailed') delivery.failure_reason = event.data.reason;
        state.pending.delete(delivery.id);
        trim(state, delivery.endpoint_id);
        break;
      }
    }
    return state;
  },
  toJSON(state) {
    const deliveries = [...state.byId.values()].sort((a, b) => a.created_position - b.created_position);
    return { deliveries, deleted: [...state.deleted] };
  },
  fromJSON(json) {
    const state = webhookDeliveriesProjection.initialState();
    const { deliveries, deleted } = json as { deliveries: DeliveryRecord[]; deleted: string[] };
    for (const endpoint of deleted) state.deleted.add(endpoint);
    for (const delivery of deliveries) {
      state.byId.set(delivery.id, delivery);
      const ids = state.byEndpoint.get(delivery.endpoint_id) ?? [];
      ids.push(delivery.id);
      state.byEndpoint.set(delivery.endpoint_id, ids);
      if (delivery.status === 'pending') state.pending.add(delivery.id);
    }
    return state;
  },
};

/** An endpoint's deliveries, newest first. */
export function endpointDeliveries(state: WebhookDeliveriesModel, endpointId: string): DeliveryRecord[] {
  return (state.byEndpoint.get(endpointId) ?? []).map((id) => state.byId.get(id)!).reverse();
}

/** Pending deliveries due at `now` that no instance holds, the longest waiting first. */
export function dueDeliveries(state: WebhookDeliveriesModel, now: Date, limit: number): DeliveryRecord[] {
  const at = now.getTime();
  const due: DeliveryRecord[] = [];
  for (const id of state.pending) {
    const delivery = state.byId.get(id)!;
    if (delivery.next_attempt_at === null || Date.parse(delivery.next_attempt_at) > at) continue;
    if (delivery.claim_expires_at !== null && Date.parse(delivery.claim_expires_at) > at) continue;
    due.push(delivery);
  }
  return due.sort((a, b) => Date.parse(a.next_attempt_at!) - Date.parse(b.next_attempt_at!)).slice(0, limit);
}
