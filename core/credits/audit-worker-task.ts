import type { Config } from '../config.js';
import { openEventStore } from '../store/open-store.js';
import { auditRange, type AuditRange, type RangeAudit } from './audit-range.js';

/** A worker's share of the parallel audit: its own connection to the store the configuration names. */
export async function auditRangeOfConfig(config: Config, range: AuditRange): Promise<RangeAudit> {
  const store = await openEventStore(config);
  try {
    return await auditRange(store, range);
  } finally {
    await store.close();
  }
}
