import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Mode } from '../../core/events/envelope.js';
import type { EventRegistry } from '../../core/events/registry.js';
import type { EventStore } from '../../core/store/event-store.js';
import type { PageReader } from '../runner/projection-runner.js';
import { emptyModeRecordTotals, type RecordTotals } from '../../core/audit/audit-range.js';
import type { StoredRecordTotals } from '../../core/audit/store-audit.js';

import { RebuildBatches, type RebuildWriter } from './rebuild-batches.js';
import { TableWriter } from './table-writer.js';
import { addUsageChanges, type UsageChange, type UsageRecord } from './usage-changes.js';

export type { UsageChange, UsageRecord } from './usage-changes.js';

export interface RecordFilter {
  mode?: Mode;
  /** Inclusive, ISO 8601 UTC as the store writes it. */
  from?: string;
  /** Exclusive. */
  to?: string;
  /** Only records at positions before this one (the page cursor). */
  before?: number;
}

export type PeriodFilter = Pick<RecordFilter, 'mode' | 'from' | 'to'>;

/**
 * A filter as SQL conditions, the same for every database but for its placeholders: `placeholder(n)`
 * is the n-th (from 1) value's (`?` for sqlite, `$n` for postgres).
 */
export function recordConditions(
  accountId: string,
  { mode, from, to, before }: RecordFilter,
  placeholder: (n: number) => string,
): { where: string; values: unknown[] } {
  const filters: [string, unknown][] = [['account =', accountId]];
  if (mode !== undefined) filters.push(['mode =', mode]);
  if (from !== undefined) filters.push(['recorded_at >=', from]);
  if (to !== undefined) filters.push(['recorded_at <', to]);
  if (before !== undefined) filters.push(['position <', before]);
  return {
    where: filters.map(([clause], index) => `${clause} ${placeholder(index + 1)}`).join(' AND '),
    values: filters.map(([, value]) => value),
  };
}

/**
 * Where the usage records are kept: a table in the store's own database (sqlite, postgres), or memory
 * for the memory store. A batch of changes is applied with the checkpoint it brings the table to, in one
 * transaction, and only if the checkpoint is still the one it was read after: a concurrent writer (another
 * process or instance on the same database) makes it refuse, and the batch is read again.
 */
export interface UsageRecordTable {
  checkpoint(): Promise<number>;
  /** False, and nothing applied, if the checkpoint is no longer `after`. */
  apply(after: number, changes: readonly UsageChange[], checkpoint: number): Promise<boolean>;
  /** Newest first. */
  page(accountId: string, filter: RecordFilter, limit: number): Promise<UsageRecord[]>;
  /** Every record of the account in the period (of one mode, if given), in position order, for the summaries. */
  inPeriod(accountId: string, period: PeriodFilter): AsyncIterable<UsageRecord>;
  /**
   * Empties the table and its checkpoint, for a rebuild. What only speeds up reads may be left out until `rebuilt`
   * (sqlite: the index by time, which would otherwise be kept up through every batch).
   */
  reset(): Promise<void>;
  /** A rebuild's batches are applied: builds what `reset` left out. */
  rebuilt(): Promise<void>;
  /**
   * For the audit: per account (only `accountId`'s, if given) and mode, the records, their credits, and
   * those refunded, summed by the database, with the checkpoint they stand at, in one snapshot.
   */
  totals(accountId?: string): Promise<StoredRecordTotals>;
}

/** One group of a `totals` query: an account's records of one mode. */
export type RecordTotalsRow = RecordTotals & { account: string; mode: Mode };

/** The groups as the audit takes them: each account with both modes, a mode without records at zero. */
export function recordTotalsByAccount(checkpoint: number, rows: Iterable<RecordTotalsRow>): StoredRecordTotals {
  const accounts = new Map<string, Record<Mode, RecordTotals>>();
  for (const { account, mode, ...totals } of rows) {
    let modes = accounts.get(account);
    if (!modes) accounts.set(account, (modes = emptyModeRecordTotals()));
    modes[mode] = totals;
  }
  return { checkpoint, accounts };
}

/**
 * The usage records read model. The list of records grows with every charged operation, so it is not
 * kept in memory or in a projection snapshot: it lives in a table of the store's database, which this
 * class brings up to the store's head when asked (`catchUp`, before each read), and pages from there
 * by position. The totals the audit compares with the projections stay in the in-memory usage projection
 * (usage.ts); the audit checks this table against the events by its sums (`totals`).
 */
export class UsageRecords {
  private tail: Promise<unknown> = Promise.resolve();
  private queued: Promise<void> | null = null;
  private timer: NodeJS.Timeout | undefined;

  private readonly batchSize: number;
  private readonly rebuildBatch: number | undefined;
  private readonly rebuildWriter: () => Promise<RebuildWriter>;

  /**
   * `batchSize`: events per read, and per transaction outside a rebuild. `rebuildWriter`: what a rebuild writes
   * through, the table itself unless given (sqlite: a worker thread's connection, usage-records-for-store.ts).
   * `rebuildBatch`: events per transaction of a rebuild (rebuild-batches.ts).
   */
  constructor(
    private readonly store: EventStore,
    private readonly registry: EventRegistry,
    readonly table: UsageRecordTable,
    options: { batchSize?: number; rebuildBatch?: number; rebuildWriter?: () => Promise<RebuildWriter> } = {},
  ) {
    this.batchSize = options.batchSize ?? 1000;
    this.rebuildBatch = options.rebuildBatch;
    this.rebuildWriter = options.rebuildWriter ?? (async () => new TableWriter(table));
  }

  /**
   * Applies every event written before the call. A pass starts after the one running (which may have
   * read the store before the caller's write); calls made while a pass waits to start share it.
   */
  catchUp(): Promise<void> {
    this.queued ??= this.serial(() => {
      this.queued = null;
      return this.pass();
    });
    return this.queued;
  }

  /**
   * Catches up every `intervalMs` in the background, so that a read finds little left to apply (the
   * first read after a long quiet time would otherwise apply everything written meanwhile).
   */
  start(intervalMs: number, onError: (error: unknown) => void): void {
    this.timer ??= setInterval(() => this.catchUp().catch(onError), intervalMs);
    this.timer.unref();
  }

  /** Stops the background catch-up; resolves once a pass in progress has ended. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.tail;
  }

  /** Replays the records from the first event, read here in pages (see `rebuildAlongside`). */
  async rebuild(): Promise<void> {
    await this.rebuildAlongside(async (page) => {
      for (let after = 0; ;) {
        const events = await this.store.readAll({ after, maxCount: this.batchSize });
        const last = events.length < this.batchSize;
        await page(events, last);
        if (last) return;
        after = events.at(-1)!.position;
        await nextTurn();
      }
    });
  }

  /**
   * Replays the records from the first event as `read` hands over the events in pages, in order from the first: the
   * projection runner's rebuild does, so that the events are read and parsed once for both; the last batch is applied
   * while `read` finishes (the runner saves its snapshots). Then catches up with what was written meanwhile, or not
   * handed over.
   */
  async rebuildAlongside(read: (page: PageReader) => Promise<void>): Promise<void> {
    await this.serial(async () => {
      const writer = await this.rebuildWriter();
      let closing: Promise<void> | undefined;
      try {
        await writer.reset();
        const batches = new RebuildBatches(writer, this.registry, this.rebuildBatch);
        await read(async (events, last) => {
          await batches.add(events, last);
          // The last batch is handed over: the writer applies it and finishes while `read` does.
          if (last) closing ??= writer.close();
        });
        await batches.end();
      } catch (error) {
        // The writer is let go of all the same; what failed first is what the rebuild reports.
        await (closing ?? writer.close()).catch(() => undefined);
        throw error;
      }
      await (closing ?? writer.close());
    });
    await this.catchUp();
  }

  /** Passes and resets run one after the other. */
  private serial<T>(task: () => Promise<T>): Promise<T> {
    const result = this.tail.then(task);
    this.tail = result.catch(() => {});
    return result;
  }

  /** Applies the events after the table's checkpoint, a page of `batchSize` a transaction. */
  private async pass(): Promise<void> {
    for (;;) {
      const after = await this.table.checkpoint();
      const events = await this.store.readAll({ after, maxCount: this.batchSize });
      if (events.length === 0) return;
      const changes: UsageChange[] = [];
      addUsageChanges(changes, events, this.registry);
      // Refused: another writer moved the checkpoint; read again from where it is now.
      const applied = await this.table.apply(after, changes, events.at(-1)!.position);
      if (applied && events.length < this.batchSize) return;
      // As the projection runner's pass: a synchronous store's read never leaves the event loop a turn.
      await nextTurn();
    }
  }
}
