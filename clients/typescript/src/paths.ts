import type { paths } from './schema.js';
import type { WebhookPaths } from './webhooks/webhook-paths.js';

/**
 * Every operation the client calls, typed by the generated document; the webhook operations fall back to
 * their written types while the document does not describe them, and the generated ones win once it does.
 */
export type Paths = paths extends { '/v1/webhooks': unknown } ? paths : paths & WebhookPaths;
