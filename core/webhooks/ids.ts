import { createHash, randomBytes } from 'node:crypto';

export const newEndpointId = (): string => `we_${randomBytes(12).toString('hex')}`;

const digest = (...parts: string[]): string => createHash('sha256').update(parts.join('\n')).digest('hex').slice(0, 32);

/**
 * The id receivers de-duplicate on: derived from what caused the event (`key`: the source event's id, and
 * the endpoint's for an event only that endpoint gets), never drawn, so a replay or a second instance
 * derives the same one.
 */
export const webhookEventId = (key: string): string => `evt_${digest('event', key)}`;

/**
 * One delivery per event and endpoint: scheduling appends to this id's stream only if it has no event yet,
 * so however often the event is seen, the endpoint is sent it once (with retries).
 */
export const deliveryId = (endpointId: string, eventId: string): string =>
  `wd_${digest('delivery', endpointId, eventId)}`;
