import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Mode, RecordedEvent } from '../../core/events/envelope.js';
import type { EventRegistry } from '../../core/events/registry.js';
import type { EventStore } from '../../core/store/event-store.js';
import { accountIdOfStream } from '../../core/accounts/account.js';
import type {
  CreditsDebited,
  CreditsRefunded,
  CreditsReserved,
  CreditsSettled,
  TableCharge,
} from '../../core/accounts/credits.js';
import { emptyModeRecordTotals, type RecordTotals } from '../../core/audit/audit-range.js';
import type { StoredRecordTotals } from '../../core/audit/store-audit.js';

/** One charged (live) or sandbox (test) operation: a quick generation's debit or a job's settlement. */
export interface UsageRecord {
  /** `usg_<position>`: stable across rebuilds, since positions are. */
  id: string;
  reference: string;
  /** `debit` (quick generation) or `settlement` (a job); a refund applies to a debit. */
  source: 'debit' | 'settlement';
  operation: string;
  mode: Mode;
  key_id: string | null;
  sector: string;
  tables: TableCharge[];
  rows: number;
  /** Live: credits charged. Test: what the work would have cost live. */
  credits: number;
  refunded: boolean;
  recorded_at: string;
  position: number;
}

/** What one event does to the usage records. A settlement takes its key and sector from its reservation. */
export type UsageChange =
  | { kind: 'record'; accountId: string; record: UsageRecord }
  | { kind: 'settle'; accountId: string; record: Omit<UsageRecord, 'key_id' | 'sector'> }
  | { kind: 'refund'; accountId: string; reference: string }
  | { kind: 'reserve'; accountId: string; reference: string; key_id: string | null; sector: string }
  | { kind: 'release'; accountId: string; reference: string };

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
  /** Empties the table and its checkpoint, for a rebuild. */
  reset(): Promise<void>;
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
 * Events per transaction of a rebuild: a batch's records land on every account's pages, which a commit writes once
 * however many records it holds (docs/performance.md). Only the batch's changes are kept meanwhile, not its events.
 */
const REBUILD_BATCH = 100_000;

const HANDLED = new Set(['CreditsDebited', 'CreditsRefunded', 'CreditsReserved', 'CreditsSettled', 'CreditsReleased']);

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
  private readonly rebuildApart: (() => Promise<void>) | undefined;

  /**
   * `batchSize`: events per read, and per transaction outside a rebuild. `rebuildApart`: the rebuild run by
   * another thread over its own connection (sqlite: usage-records-for-store.ts), while this one goes on.
   */
  constructor(
    private readonly store: EventStore,
    private readonly registry: EventRegistry,
    readonly table: UsageRecordTable,
    options: { batchSize?: number; rebuildApart?: () => Promise<void> } = {},
  ) {
    this.batchSize = options.batchSize ?? 1000;
    this.rebuildApart = options.rebuildApart;
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

  /**
   * Replays the records from the first event, in batches of `REBUILD_BATCH` events: a batch's records are spread
   * over every account's pages of the table, which a transaction then writes once for many records, not for each.
   */
  async rebuild(): Promise<void> {
    await this.serial(async () => {
      if (this.rebuildApart) return this.rebuildApart();
      await this.table.reset();
      await this.pass(REBUILD_BATCH);
    });
    await this.catchUp();
  }

  /** Passes and resets run one after the other. */
  private serial<T>(task: () => Promise<T>): Promise<T> {
    const result = this.tail.then(task);
    this.tail = result.catch(() => {});
    return result;
  }

  /**
   * Applies the events after the table's checkpoint, `eventsPerApply` at a time in one transaction, read in pages
   * of `batchSize`: only the changes of the pages are kept until they are applied, not their events, which would
   * outgrow V8's young generation and make a rebuild's collections costly.
   */
  private async pass(eventsPerApply = this.batchSize): Promise<void> {
    for (;;) {
      const after = await this.table.checkpoint();
      const changes: UsageChange[] = [];
      let checkpoint = after;
      let ended = false;
      // Counted, not told from positions: those of postgres and kurrentdb have gaps.
      for (let read = 0; !ended && read < eventsPerApply;) {
        const events = await this.store.readAll({ after: checkpoint, maxCount: this.batchSize });
        read += events.length;
        for (const event of events)
          if (HANDLED.has(event.type))
            for (const change of usageChanges(this.registry.upcast(event))) changes.push(change);
        ended = events.length < this.batchSize;
        if (events.length > 0) checkpoint = events.at(-1)!.position;
        // As the projection runner's pass: a synchronous store's read never leaves the event loop a turn.
        if (!ended) await nextTurn();
      }
      if (checkpoint === after) return;
      // Refused: another writer moved the checkpoint; read again from where it is now.
      const applied = await this.table.apply(after, changes, checkpoint);
      if (applied && ended) return;
    }
  }
}

export function usageChanges(event: RecordedEvent): UsageChange[] {
  const accountId = accountIdOfStream(event.stream);
  if (accountId === null) return [];
  // Each record written out whole, not spread from common members: this runs for every charge of a rebuild.
  switch (event.type) {
    case 'CreditsDebited': {
      const { reference, operation, mode, key_id, sector, tables, credits } = event.data as CreditsDebited['data'];
      const record: UsageRecord = {
        id: `usg_${event.position}`,
        reference,
        source: 'debit',
        operation,
        mode,
        key_id,
        sector,
        tables,
        rows: totalRows(tables),
        credits,
        refunded: false,
        recorded_at: event.recorded_at,
        position: event.position,
      };
      return [{ kind: 'record', accountId, record }];
    }
    case 'CreditsRefunded':
      return [{ kind: 'refund', accountId, reference: (event.data as CreditsRefunded['data']).reference }];
    case 'CreditsReserved': {
      const { reference, key_id, sector } = event.data as CreditsReserved['data'];
      return [{ kind: 'reserve', accountId, reference, key_id, sector }];
    }
    case 'CreditsSettled': {
      const { reference, mode, tables, credits } = event.data as CreditsSettled['data'];
      const record: Omit<UsageRecord, 'key_id' | 'sector'> = {
        id: `usg_${event.position}`,
        reference,
        source: 'settlement',
        operation: 'job',
        mode,
        tables,
        rows: totalRows(tables),
        credits,
        refunded: false,
        recorded_at: event.recorded_at,
        position: event.position,
      };
      return [{ kind: 'settle', accountId, record }];
    }
    case 'CreditsReleased':
      return [{ kind: 'release', accountId, reference: (event.data as { reference: string }).reference }];
    default:
      return [];
  }
}

/** A loop rather than `reduce`: this runs for every charge of a rebuild. */
function totalRows(tables: readonly TableCharge[]): number {
  let rows = 0;
  for (let i = 0; i < tables.length; i++) rows += tables[i].rows;
  return rows;
}
