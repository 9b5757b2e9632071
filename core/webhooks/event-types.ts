/** What an endpoint may subscribe to: the `type` of the events it is sent. */
export const WEBHOOK_EVENT_TYPES = [
  'job.succeeded',
  'job.failed',
  'job.cancelled',
  'credits.low',
  'subscription.renewed',
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** An endpoint per account and mode is plenty for fan-out; more would let one account multiply every event. */
export const MAX_ENDPOINTS_PER_MODE = 16;
