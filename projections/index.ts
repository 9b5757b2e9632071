import type { Projection } from './runner/projection.js';
import { keysProjection } from './keys/keys.js';
import { jobsProjection } from './jobs/jobs.js';
import { configsProjection } from './configs/configs.js';
import { overlaysProjection } from './configs/overlays.js';
import { ledgerProjection } from './ledger/ledger.js';
import { usageProjection } from './usage/usage.js';
import { billingProjection } from './billing/billing.js';
import { webhookEndpointsProjection } from './webhooks/endpoints.js';
import { webhookDeliveriesProjection } from './webhooks/deliveries.js';

/** Every read model the service keeps: the runner feeds each one the events it handles, and only those listed here. */
export const projections: Projection<unknown>[] = [
  keysProjection,
  jobsProjection,
  configsProjection,
  overlaysProjection,
  ledgerProjection,
  usageProjection,
  billingProjection,
  webhookEndpointsProjection,
  webhookDeliveriesProjection,
];
