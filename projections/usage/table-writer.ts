import type { RebuildWriter } from './rebuild-batches.js';
import type { UsageChange } from './usage-changes.js';

/** What a rebuild needs of a usage records table (usage-records.ts, UsageRecordTable). */
export interface RebuiltTable {
  reset(): Promise<void>;
  apply(after: number, changes: readonly UsageChange[], checkpoint: number): Promise<boolean>;
  rebuilt(): Promise<void>;
}

/** A rebuild's writes to a table: the changes added since the last apply, applied in one transaction. */
export class TableWriter implements RebuildWriter {
  private pending: UsageChange[] = [];

  constructor(private readonly table: RebuiltTable) {}

  reset(): Promise<void> {
    this.pending = [];
    return this.table.reset();
  }

  add(changes: readonly UsageChange[]): void {
    for (const change of changes) this.pending.push(change);
  }

  apply(after: number, checkpoint: number): Promise<boolean> {
    const changes = this.pending;
    this.pending = [];
    // By account, each account's changes in their order: the records land page after page of the table, kept by
    // account, rather than all over it; an account's changes never touch another's rows.
    changes.sort(byAccount);
    return this.table.apply(after, changes, checkpoint);
  }

  close(): Promise<void> {
    return this.table.rebuilt();
  }
}

/** A stable sort's order: by account only. */
const byAccount = (a: UsageChange, b: UsageChange): number =>
  a.accountId < b.accountId ? -1 : a.accountId > b.accountId ? 1 : 0;
