import type { ProjectedTotals } from '../../core/audit/store-audit.js';
import { BILLING_PROJECTION, billedTotals, type BillingModel } from '../billing/billing.js';
import { LEDGER_PROJECTION, type LedgerModel } from './ledger.js';
import { USAGE_PROJECTION, type UsageModel } from '../usage/usage.js';
import { usageCreditTotals } from '../usage/usage-queries.js';

/** The balances, usage totals and billed totals the live read models show: what the audit checks. */
export function projectedTotals(projections: { state<S>(name: string): S }): ProjectedTotals {
  const ledger = projections.state<LedgerModel>(LEDGER_PROJECTION);
  return {
    balances: new Map(
      [...ledger].map(([accountId, { credits_available, credits_reserved }]) => [
        accountId,
        { credits_available, credits_reserved },
      ]),
    ),
    usage: usageCreditTotals(projections.state<UsageModel>(USAGE_PROJECTION)),
    billed: billedTotals(projections.state<BillingModel>(BILLING_PROJECTION)),
  };
}
