import type { Mode } from '../core/events/envelope.js';
import type { UsageModel, UsageRecord } from './usage.js';

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

/** The account's usage records in the period (and mode, if given), newest first. */
export function usageRecords(state: UsageModel, accountId: string, filter: UsagePeriod & { mode?: Mode }): UsageRecord[] {
  return (state.records.get(accountId) ?? [])
    .filter((record) => inPeriod(record, filter) && (filter.mode === undefined || record.mode === filter.mode))
    .reverse();
}

/**
 * Consumption over a period, live and test apart: totals, then per UTC day, sector, table and key.
 * Refunded work consumed nothing and counts only under `refunded`. Breakdowns are sorted by their key.
 */
export function usageSummary(state: UsageModel, accountId: string, period: UsagePeriod): Record<Mode, ModeUsage> {
  const records = (state.records.get(accountId) ?? []).filter((record) => inPeriod(record, period));
  return { live: summarise(records.filter((r) => r.mode === 'live')), test: summarise(records.filter((r) => r.mode === 'test')) };
}

/** Live and test credit totals of every account: what the audit recomputes from the events. */
export function usageCreditTotals(state: UsageModel): Map<string, Record<Mode, number>> {
  const totals = new Map<string, Record<Mode, number>>();
  for (const [accountId, records] of state.records) {
    const sum = { live: 0, test: 0 };
    for (const record of records) if (!record.refunded) sum[record.mode] += record.credits;
    totals.set(accountId, sum);
  }
  return totals;
}

function summarise(records: UsageRecord[]): ModeUsage {
  const charged = records.filter((record) => !record.refunded);
  const refunded = records.filter((record) => record.refunded);
  const days = new Map<string, UsageTotals>();
  const sectors = new Map<string, UsageTotals>();
  const tables = new Map<string, UsageTotals>();
  const keys = new Map<string | null, UsageTotals>();
  for (const record of charged) {
    add(bucket(days, record.recorded_at.slice(0, 10)), 1, record.rows, record.credits);
    add(bucket(sectors, record.sector), 1, record.rows, record.credits);
    add(bucket(keys, record.key_id), 1, record.rows, record.credits);
    for (const table of record.tables) add(bucket(tables, `${record.sector}\n${table.name}`), 1, table.rows, table.credits);
  }
  return {
    ...charged.reduce((totals, record) => add(totals, 1, record.rows, record.credits), zero()),
    refunded: { operations: refunded.length, credits: refunded.reduce((sum, record) => sum + record.credits, 0) },
    by_day: sorted(days).map(([date, totals]) => ({ date, ...totals })),
    by_sector: sorted(sectors).map(([sector, totals]) => ({ sector, ...totals })),
    by_table: sorted(tables).map(([key, totals]) => {
      const [sector, table] = key.split('\n') as [string, string];
      return { sector, table, ...totals };
    }),
    by_key: sorted(keys).map(([key_id, totals]) => ({ key_id, ...totals })),
  };
}

const inPeriod = (record: UsageRecord, { from, to }: UsagePeriod): boolean =>
  (from === undefined || Date.parse(record.recorded_at) >= Date.parse(from)) && (to === undefined || Date.parse(record.recorded_at) < Date.parse(to));

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
