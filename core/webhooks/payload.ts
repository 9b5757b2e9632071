import { canonicalJson } from '../events/canonical-json.js';
import type { WebhookDeliveryScheduled } from './events.js';

/**
 * The body sent for a delivery, the same bytes at every attempt and on every instance: the envelope's
 * members in a fixed order, `data.object` with its keys sorted (a database may hand them back reordered).
 */
export function webhookBody(scheduled: WebhookDeliveryScheduled['data']): string {
  return (
    `{"id":${JSON.stringify(scheduled.event_id)},"type":${JSON.stringify(scheduled.event_type)},` +
    `"created":${scheduled.created},"livemode":${scheduled.mode === 'live'},` +
    `"data":{"object":${canonicalJson(scheduled.object)}}}`
  );
}
