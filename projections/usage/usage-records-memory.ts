import type { StoredRecordTotals } from '../../core/audit/store-audit.js';
import { emptyRecordTotals } from '../../core/audit/audit-range.js';
import {
  recordTotalsByAccount,
  type PeriodFilter,
  type RecordFilter,
  type RecordTotalsRow,
  type UsageChange,
  type UsageRecord,
  type UsageRecordTable,
} from './usage-records.js';

/** For the memory store (tests): the records live as long as the events they come from. */
export class MemoryUsageRecordTable implements UsageRecordTable {
  private position = 0;
  private records = new Map<string, UsageRecord[]>();
  private reservations = new Map<string, { key_id: string | null; sector: string }>();

  async checkpoint(): Promise<number> {
    return this.position;
  }

  async apply(after: number, changes: readonly UsageChange[], checkpoint: number): Promise<boolean> {
    if (this.position !== after) return false;
    for (const change of changes) this.applyOne(change);
    this.position = checkpoint;
    return true;
  }

  async page(accountId: string, filter: RecordFilter, limit: number): Promise<UsageRecord[]> {
    const page: UsageRecord[] = [];
    const list = this.records.get(accountId) ?? [];
    for (let index = list.length - 1; index >= 0 && page.length < limit; index -= 1) {
      const record = list[index]!;
      if (matches(record, filter)) page.push(structuredClone(record));
    }
    return page;
  }

  async *inPeriod(accountId: string, period: PeriodFilter): AsyncIterable<UsageRecord> {
    for (const record of this.records.get(accountId) ?? []) if (matches(record, period)) yield record;
  }

  async reset(): Promise<void> {
    this.position = 0;
    this.records = new Map();
    this.reservations = new Map();
  }

  /** Nothing is left out by the reset. */
  async rebuilt(): Promise<void> {}

  async totals(accountId?: string): Promise<StoredRecordTotals> {
    const groups = new Map<string, RecordTotalsRow>();
    for (const [account, records] of this.records) {
      if (accountId !== undefined && account !== accountId) continue;
      for (const { mode, credits, refunded } of records) {
        const group = groups.get(`${account} ${mode}`) ?? { account, mode, ...emptyRecordTotals() };
        group.records += 1;
        group.credits += credits;
        if (refunded) {
          group.refunded_records += 1;
          group.refunded_credits += credits;
        }
        groups.set(`${account} ${mode}`, group);
      }
    }
    return recordTotalsByAccount(this.position, groups.values());
  }

  private applyOne(change: UsageChange): void {
    const key = `${change.accountId} ${'reference' in change ? change.reference : change.record.reference}`;
    switch (change.kind) {
      case 'record':
        this.append(change.accountId, change.record);
        break;
      case 'settle': {
        const reservation = this.reservations.get(key);
        if (!reservation)
          throw new Error(
            `settlement of unknown reservation ${change.record.reference} on account ${change.accountId}`,
          );
        this.reservations.delete(key);
        this.append(change.accountId, { ...change.record, ...reservation });
        break;
      }
      case 'refund': {
        const debit = (this.records.get(change.accountId) ?? []).find(
          (record) => record.source === 'debit' && record.reference === change.reference,
        );
        if (!debit) throw new Error(`refund of unknown debit ${change.reference} on account ${change.accountId}`);
        debit.refunded = true;
        break;
      }
      case 'reserve':
        this.reservations.set(key, { key_id: change.key_id, sector: change.sector });
        break;
      case 'release':
        this.reservations.delete(key);
        break;
    }
  }

  private append(accountId: string, record: UsageRecord): void {
    const list = this.records.get(accountId);
    if (list) list.push(record);
    else this.records.set(accountId, [record]);
  }
}

function matches(record: UsageRecord, { mode, from, to, before }: RecordFilter): boolean {
  return (
    (mode === undefined || record.mode === mode) &&
    (from === undefined || record.recorded_at >= from) &&
    (to === undefined || record.recorded_at < to) &&
    (before === undefined || record.position < before)
  );
}
