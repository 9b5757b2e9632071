import type { EventDefinition } from '../events/registry.js';
import { accountEvents } from '../accounts/account.js';
import { idempotencyEvents } from '../idempotency/idempotency.js';
import { jobEvents } from '../jobs/events.js';
import { configEvents } from '../configs/config-documents.js';
import { overlayEvents } from '../configs/overlay-documents.js';
import { webhookEvents } from '../webhooks/events.js';

/**
 * Every event type the service writes, in one list: the registry built from it refuses anything
 * else, so a stream can only ever hold events that a decider and the projections know how to read.
 * Each concept adds its definitions here with one line.
 */
export const eventDefinitions: EventDefinition[] = [
  ...accountEvents,
  ...idempotencyEvents,
  ...jobEvents,
  ...configEvents,
  ...overlayEvents,
  ...webhookEvents,
];
