import type { Mode } from '../../core/events/envelope.js';
import type { WebhooksReadModel } from '../../core/webhooks/ports.js';
import { dueDeliveries, type WebhookDeliveriesModel } from './deliveries.js';
import type { WebhookEndpointsModel } from './endpoints.js';

/** The webhooks read models as the core's port sees them (wired by the composition root). */
export function webhooksReadModel(
  endpoints: WebhookEndpointsModel,
  deliveries: WebhookDeliveriesModel,
): WebhooksReadModel {
  return {
    endpoint: (endpointId) => endpoints.byId.get(endpointId),
    activeEndpoints: (accountId: string, mode: Mode) =>
      [...endpoints.byId.values()].filter(
        (endpoint) => endpoint.account_id === accountId && endpoint.mode === mode && endpoint.deleted_at === null,
      ).length,
    dueDeliveries: (now, limit) => dueDeliveries(deliveries, now, limit),
  };
}
