import type { Projection } from './projection.js';
import { keysProjection } from './keys.js';
import { jobsProjection } from './jobs.js';
import { configsProjection } from './configs.js';
import { overlaysProjection } from './overlays.js';
import { ledgerProjection } from './ledger.js';
import { usageProjection } from './usage.js';
import { billingProjection } from './billing.js';

/**
 * Every read model the service keeps. The runner feeds each the events it handles; each workstream
 * appends its projections here with one line.
 */
export const projections: Projection<unknown>[] = [
  keysProjection,
  jobsProjection,
  configsProjection,
  overlaysProjection,
  ledgerProjection,
  usageProjection,
  billingProjection,
];
