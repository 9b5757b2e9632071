import { availableParallelism } from 'node:os';
import { auditStore, type StoreAuditReport } from '../core/audit/store-audit.js';
import { createServices } from '../core/services/services.js';
import { projectedTotals } from '../projections/ledger/ledger-totals.js';
import { LEDGER_PROJECTION } from '../projections/ledger/ledger.js';
import { USAGE_PROJECTION } from '../projections/usage/usage.js';
import { BILLING_PROJECTION } from '../projections/billing/billing.js';
import { configFrom } from './options.js';

export interface AuditReplayOptions {
  account?: string;
  data?: string;
  json?: boolean;
}

/**
 * `finsynth audit` (no subcommand): replays the store from its first event and checks every hash chain, and every
 * account's balance, usage total and billed total against the projections, and its usage records'
 * count and credits (refunded apart) per mode against the records table. Exit code 0 only if all
 * holds; 1 naming each difference otherwise, or when --account names no account of the store. With
 * --json, stdout holds the report and nothing else.
 */
export async function auditReplay(values: AuditReplayOptions): Promise<number> {
  const services = await createServices(configFrom(values), { background: false });
  try {
    await services.projections.waitForHead(600_000);
    // Hold the read models still, and audit the store exactly up to where they stand.
    await services.projections.stop();
    const compared = new Set([LEDGER_PROJECTION, USAGE_PROJECTION, BILLING_PROJECTION]);
    const until = Math.min(
      ...services.projections
        .status()
        .filter(({ name }) => compared.has(name))
        .map(({ checkpoint }) => checkpoint),
    );
    const started = performance.now();
    // The records table as it stands (read, never caught up: the audit writes nothing), checked up to its checkpoint.
    const records = await services.usageRecords.table.totals(values.account);
    const report = await auditStore(
      services.store,
      { ...projectedTotals(services.projections), records },
      {
        accountId: values.account,
        until,
        parallel: { config: services.config, workers: availableParallelism() },
      },
    );
    const seconds = (performance.now() - started) / 1000;
    if (values.account !== undefined && report.accounts === 0) {
      // A mistyped id would otherwise "hold": nothing was checked.
      process.stderr.write(`finsynth audit: the store has no account "${values.account}"\n`);
      return 1;
    }
    if (values.json)
      process.stdout.write(
        `${JSON.stringify({ ...report, seconds, events_per_s: Math.round(report.events / seconds) })}\n`,
      );
    else process.stdout.write(describe(report, seconds));
    return report.holds ? 0 : 1;
  } finally {
    await services.close();
  }
}

function describe(report: StoreAuditReport, seconds: number): string {
  const lines = [
    `replayed ${report.events} events of ${report.streams} streams (${report.accounts} accounts) ` +
      `in ${seconds.toFixed(2)} s`,
  ];
  if (report.usage_records_until !== null)
    lines.push(`usage records checked up to position ${report.usage_records_until}`);
  for (const { stream, revision, position, reason } of report.chain_breaks)
    lines.push(`CHAIN BROKEN  ${stream} revision ${revision} (position ${position}): ${reason}`);
  for (const { account_id, position, credits_available } of report.negative_balances)
    lines.push(
      `NEGATIVE      account ${account_id}: ${credits_available} credits available after position ${position}`,
    );
  for (const { account_id, what, replayed, projected } of report.differences) {
    const shownBy = what === 'usage_records' ? 'the records table shows' : 'projection shows';
    lines.push(
      `DIFFERS       account ${account_id} ${what}: ` +
        `replayed ${JSON.stringify(replayed)}, ${shownBy} ${JSON.stringify(projected)}`,
    );
  }
  lines.push(report.holds ? 'the audit holds' : 'the audit does NOT hold');
  return `${lines.join('\n')}\n`;
}
