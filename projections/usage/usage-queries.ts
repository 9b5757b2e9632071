import type { Mode } from '../../core/events/envelope.js';
import type { UsageModel } from './usage.js';
import type { UsageRecord, UsageRecordTable } from './usage-records.js';

export interface UsagePeriod {
  /** Inclusive, ISO 8601. */
  from?: string;
  /** Exclusive, ISO 8601. */
  to?: string;
}

export interface UsageTotals {
  operations: number;
  rows: number;
  credits: number;
}

export interface ModeUsage extends UsageTotals {
  /** Operations refunded after their debit (failed work): not in the totals above. */
  refunded: { operations: number; credits: number };
  by_day: (UsageTotals & { date: string })[];
  by_sector: (UsageTotals & { sector: string })[];
  by_table: (UsageTotals & { sector: string; table: string })[];
  by_key: (UsageTotals & { key_id: string | null })[];
}

/**
 * One mode's consumption over a period: totals, then per UTC day, sector, table and key. Refunded work
 * consumed nothing and counts only under `refunded`. Breakdowns are sorted by their key. The period's
 * records are read one at a time from the table, never held together.
 */
export async function usageSummary(
  table: UsageRecordTable,
  accountId: string,
  mode: Mode,
  period: UsagePeriod,
): Promise<ModeUsage> {
  const summary = new Summary();
  for await (const record of table.inPeriod(accountId, { mode, ...period })) summary.add(record);
  return summary.result();
}

/** Live and test credit totals of every account: what the audit recomputes from the events. */
export function usageCreditTotals(state: UsageModel): Map<string, Record<Mode, number>> {
  return new Map([...state.entries()].map(([accountId, totals]) => [accountId, { ...totals }]));
}

class Summary {
  private readonly totals = zero();
  private readonly refunded = { operations: 0, credits: 0 };
  private readonly days = new Map<string, UsageTotals>();
  private readonly sectors = new Map<string, UsageTotals>();
  private readonly tables = new Map<string, UsageTotals>();
  private readonly keys = new Map<string | null, UsageTotals>();

  add(record: UsageRecord): void {
    if (record.refunded) {
      this.refunded.operations += 1;
      this.refunded.credits += record.credits;
      return;
    }
    add(this.totals, 1, record.rows, record.credits);
    add(bucket(this.days, record.recorded_at.slice(0, 10)), 1, record.rows, record.credits);
    add(bucket(this.sectors, record.sector), 1, record.rows, record.credits);
    add(bucket(this.keys, record.key_id), 1, record.rows, record.credits);
    for (const table of record.tables)
      add(bucket(this.tables, `${record.sector}\n${table.name}`), 1, table.rows, table.credits);
  }

  result(): ModeUsage {
    return {
      ...this.totals,
      refunded: this.refunded,
      by_day: sorted(this.days).map(([date, totals]) => ({ date, ...totals })),
      by_sector: sorted(this.sectors).map(([sector, totals]) => ({ sector, ...totals })),
      by_table: sorted(this.tables).map(([key, totals]) => {
        const [sector, table] = key.split('\n') as [string, string];
        return { sector, table, ...totals };
      }),
      by_key: sorted(this.keys).map(([key_id, totals]) => ({ key_id, ...totals })),
    };
  }
}

const zero = (): UsageTotals => ({ operations: 0, rows: 0, credits: 0 });

function bucket<K>(map: Map<K, UsageTotals>, key: K): UsageTotals {
  let totals = map.get(key);
  if (!totals) map.set(key, (totals = zero()));
  return totals;
}

function add(totals: UsageTotals, operations: number, rows: number, credits: number): UsageTotals {
  totals.operations += operations;
  totals.rows += rows;
  totals.credits += credits;
  return totals;
}

function sorted<K extends string | null>(map: Map<K, UsageTotals>): [K, UsageTotals][] {
  return [...map.entries()].sort(([a], [b]) => String(a).localeCompare(String(b)));
}
