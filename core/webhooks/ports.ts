import type { Mode } from '../events/envelope.js';
import type { DeliveryStatus } from './delivery.js';

/** Where the scheduler keeps its state with the position it has read to, as one record (projections/runner). */
export interface SchedulerCheckpoints {
  load(): Promise<{ position: number; state: unknown } | undefined>;
  save(position: number, state: unknown): Promise<void>;
}

/** An endpoint as the webhooks read model shows it. */
export interface EndpointView {
  id: string;
  account_id: string;
  mode: Mode;
  url: string;
  deleted_at: string | null;
}

/** A delivery as the webhooks read model shows it. */
export interface DeliveryView {
  id: string;
  endpoint_id: string;
  mode: Mode;
  status: DeliveryStatus;
  next_attempt_at: string | null;
  claim_expires_at: string | null;
}

/**
 * What the delivery loop and the endpoint service read of the webhooks read models (projections/webhooks),
 * as they are now; the composition root wires them.
 */
export interface WebhooksReadModel {
  endpoint(endpointId: string): EndpointView | undefined;
  /** Endpoints of the owner that are not deleted. */
  activeEndpoints(accountId: string, mode: Mode): number;
  /** Pending deliveries whose next attempt is due at `now` and that no instance holds, oldest first. */
  dueDeliveries(now: Date, limit: number): DeliveryView[];
}
