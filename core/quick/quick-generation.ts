import type { CreditsService } from '../accounts/credits-service.js';
import type { RefundOutbox } from '../accounts/refund-outbox.js';
import type { Owner } from '../configs/document-decider.js';
import type { GenerationPool } from '../generation/pool.js';
import type { Format } from '../generation/codegen/writers.js';
import { estimateConfig } from '../configs/estimate.js';
import type { PackCatalog } from '../configs/ports.js';
import { quickDebitReference } from './quick-debit-reference.js';
import { quickPlan } from './quick-plans.js';
import { quickConfig, requireQuickLimits, type QuickRequest } from './quick-request.js';
import type { SourceMap } from '../configs/source-map.js';
import { ReportCollector } from '../reports/report-collector.js';
import type { DatasetReport } from '../reports/report.js';
import { requireValidConfig } from '../configs/validate.js';

export interface QuickDeps {
  catalog: PackCatalog;
  pool: GenerationPool;
  credits: Pick<CreditsService, 'debit' | 'account'>;
  /** Where a failed generation's refund is kept until the store takes it. */
  refunds: Pick<RefundOutbox, 'refund'>;
}

export interface QuickCall {
  owner: Owner;
  keyId: string;
  requestId: string;
  /**
   * The first attempt of this request under its Idempotency-Key (the request itself without one): every
   * attempt is charged under a reference of it, so that one request is charged once (quickDebitReference).
   */
  originalRequestId: string;
  request: QuickRequest;
  /** Where the request stands in its JSON text: its errors then say their line and column. */
  source?: SourceMap;
  format: Format;
}

export interface QuickResult {
  sector: string;
  seed: number;
  /** Requested tables, in request order, each as its bytes in the format asked. */
  tables: { name: string; rows: number; bytes: Buffer }[];
  rows: number;
  credits_charged: number;
  /** The requested tables' conformance report, when the request asked for it. */
  report?: DatasetReport;
}

/**
 * Quick generation: check, charge, generate, and give the charge back if generation fails (at once, or
 * once the store is back: refund-outbox.ts). Every refusal (pack rules, then limits, 402) comes before
 * any byte is generated; a test key's debit records sandbox usage and moves no credit. The answer is
 * buffered (quick limits bound it), so a failure can still be refunded and reported as a problem
 * instead of a truncated body.
 */
export async function quickGenerate(deps: QuickDeps, call: QuickCall): Promise<QuickResult> {
  // The config has the request's members at the same pointers but for the options (`/options/<table>` in
  // the request): an issue about an option is placed at its table.
  const config = requireValidConfig(quickConfig(call.request, call.source), deps.catalog, call.source);
  requireQuickLimits(config);
  const plan = await quickPlan(deps.pool, config, call.request.seed !== undefined);
  const estimate = estimateConfig(config, deps.catalog);
  const { reference, supersedes } = await quickDebitReference(deps.credits, call.owner.accountId, call);
  await deps.credits.debit({
    accountId: call.owner.accountId,
    mode: call.owner.mode,
    keyId: call.keyId,
    reference,
    supersedes,
    operation: 'quick_generation',
    sector: config.sector,
    tables: estimate.tables.map(({ name, rows, credits }) => ({ name, rows, credits })),
    credits: estimate.credits,
  });
  try {
    const tables = [];
    // The report is of the requested tables, gathered by the workers as they write the rows.
    const reports = call.request.report ? new ReportCollector(plan) : undefined;
    for (const { name, rows } of config.tables) {
      const options = { format: call.format, ...(reports ? { statistics: reports.statisticsFor(name) } : {}) };
      tables.push({ name, rows, bytes: await collect(deps.pool.generate(plan, name, options)) });
    }
    return {
      sector: plan.sector,
      seed: plan.seed,
      tables,
      rows: estimate.rows,
      credits_charged: call.owner.mode === 'live' ? estimate.credits : 0,
      ...(reports ? { report: reports.report() } : {}),
    };
  } catch (error) {
    // Also in test mode: the sandbox usage record is given back like a live charge. Kept on disk until
    // the store takes it, so that neither a store that is down nor a process that dies now keeps the charge.
    await deps.refunds.refund({
      accountId: call.owner.accountId,
      reference,
      reason: `quick generation failed: ${(error as Error).message}`,
    });
    throw error;
  }
}

/**
 * A table's chunks as one buffer. A quick table is mostly one chunk: its bytes, moved from the worker,
 * are used as they are. Each copy of a response-sized buffer is external memory the main thread's
 * heap accounts for, and its growth is what starts the main thread's full garbage collections.
 */
async function collect(chunks: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  for await (const chunk of chunks) parts.push(chunk);
  return parts.length === 1
    ? Buffer.from(parts[0].buffer, parts[0].byteOffset, parts[0].byteLength)
    : Buffer.concat(parts);
}
