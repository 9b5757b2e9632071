import type { Mode } from '../events/envelope.js';
import type { Config } from '../settings/settings.js';
import type { EventStore } from '../store/event-store.js';
import { accountStream } from '../accounts/stream-name.js';
import type { ChainBreak } from './account-audit.js';
import { ChainChecker } from './chain-checker.js';
import {
  auditChunks,
  auditRange,
  emptyModeRecordTotals,
  emptyPartial,
  type AccountPartial,
  type ChunkAudit,
  type ChunkedRange,
  type RangeAudit,
  type RecordTotals,
} from './audit-range.js';
import type { AuditSource } from './audit-worker-task.js';
import type { Balance } from '../accounts/credits-service.js';
import { bundledWorker, startBundled } from '../workers/bundled-worker.js';

/** What the live read models say, per account: the audit's replay must find exactly the same. */
export interface ProjectedTotals {
  balances: ReadonlyMap<string, Balance>;
  usage: ReadonlyMap<string, Record<Mode, number>>;
  billed: ReadonlyMap<string, Record<string, number>>;
  /** The usage records table's totals; without them, the records are not checked. */
  records?: StoredRecordTotals;
}

/** What the usage records table holds per account and mode, read in one snapshot with its checkpoint. */
export interface StoredRecordTotals {
  /** The last event the table has applied: the records are checked against the events up to it. */
  checkpoint: number;
  accounts: ReadonlyMap<string, Record<Mode, RecordTotals>>;
}

export interface AuditDifference {
  account_id: string;
  what: 'balance' | 'usage' | 'billing' | 'usage_records';
  replayed: unknown;
  projected: unknown;
}

export interface StoreAuditReport {
  /** True only if every chain is intact, no balance ever went below zero, and every total matches. */
  holds: boolean;
  events: number;
  streams: number;
  accounts: number;
  chain_breaks: ChainBreak[];
  /** The lowest point of an account's balance where it went below zero (it never may). */
  negative_balances: { account_id: string; position: number; credits_available: number }[];
  differences: AuditDifference[];
  /** The position up to which the usage records table was checked (its checkpoint); null if it was not. */
  usage_records_until: number | null;
}

export interface StoreAuditOptions {
  /** Audit this account only. */
  accountId?: string;
  /** The last position to audit: the position the projections stand at. Default: the store's head. */
  until?: number;
  /**
   * Audit ranges of the store in this many threads: this one, and workers each with its own connection
   * (to the same file for a sqlite store, else to the store the configuration names; not for the
   * memory store, which lives in one thread).
   */
  parallel?: {
    config: Config;
    workers: number;
    /** Below this many events each, a worker costs more to start than it saves. Default 50,000. */
    minEventsPerWorker?: number;
    /**
     * The smallest chunk of positions a thread takes. Default 10,000: small enough that the threads end
     * close together, large enough that the chunks, each handing back its streams' first and last events,
     * stay few (sized by measurement; see docs/performance.md).
     */
    minChunk?: number;
  };
}

/**
 * The full audit: reads the store from its first event, follows every stream's hash chain, recomputes
 * every account's balance (and that it never went below zero), usage total (live and test), billed
 * total and usage records' totals from the events alone, and compares them with the projections and
 * the records table.
 *
 * The records table has its own checkpoint, which may stand before or after the audited position: the
 * records totals are counted up to it, within the same pass where it is before, and over the events
 * after the audited position (written meanwhile: few) where it is after.
 */
export async function auditStore(
  store: EventStore,
  projected: ProjectedTotals,
  options: StoreAuditOptions = {},
): Promise<StoreAuditReport> {
  const until = options.until ?? (await store.headPosition());
  const stream = options.accountId === undefined ? undefined : accountStream(options.accountId);
  const recordsAt = projected.records?.checkpoint;
  const recordsUntil = recordsAt === undefined ? undefined : Math.min(recordsAt, until);
  const recordsAfter =
    recordsAt !== undefined && recordsAt > until
      ? await auditRange(store, { after: until, until: recordsAt, stream })
      : undefined;
  const threads =
    stream === undefined
      ? Math.min(options.parallel?.workers ?? 1, Math.floor(until / (options.parallel?.minEventsPerWorker ?? 50_000)))
      : 1;
  if (threads <= 1)
    return combine(
      [await auditRange(store, { after: 0, until, stream, recordsUntil })],
      projected,
      options.accountId,
      recordsAfter,
    );
  const range = {
    until,
    recordsUntil,
    threads,
    minChunk: options.parallel!.minChunk ?? 10_000,
    taken: new BigInt64Array(new SharedArrayBuffer(8)),
  };
  const source = sourceOf(store, options.parallel!.config);
  // The workers are started before this thread audits chunks itself (one worker fewer to start): its
  // reads are synchronous, so a worker still waiting for its bundle would wait until this thread is done.
  const entry = await bundledWorker(new URL('./audit-worker.ts', import.meta.url));
  const workers = Array.from({ length: threads - 1 }, () => inWorker(entry, source, range));
  const shares = await Promise.all([...workers, auditChunks(store, range)]);
  const inOrder = shares.flat().sort((a, b) => a.chunk - b.chunk);
  return combine(
    inOrder.map(({ audit }) => audit),
    projected,
    options.accountId,
    recordsAfter,
  );
}

function sourceOf(store: EventStore, config: Config): AuditSource {
  return store.storage.kind === 'sqlite' ? { sqliteFile: store.storage.db.name } : { config };
}

function inWorker(entry: URL, source: AuditSource, range: ChunkedRange): Promise<ChunkAudit[]> {
  return new Promise((resolve, reject) => {
    const worker = startBundled(entry, { workerData: { source, range } });
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => code !== 0 && reject(new Error(`an audit worker exited with code ${code}`)));
  });
}

/**
 * Adds the ranges up in store order: an account's running balance enters each range where the last left it.
 * `recordsAfter`: the events after the audited ones that the records table has applied, for its totals only.
 */
function combine(
  audits: RangeAudit[],
  projected: ProjectedTotals,
  only: string | undefined,
  recordsAfter: RangeAudit | undefined,
): StoreAuditReport {
  const accounts = new Map<string, AccountPartial>();
  const negative: StoreAuditReport['negative_balances'] = [];
  for (const audit of audits) {
    for (const [accountId, part] of audit.accounts) {
      const total = accounts.get(accountId) ?? emptyPartial();
      const lowest = total.credits_available + part.lowest.credits_available;
      if (lowest < 0)
        negative.push({ account_id: accountId, position: part.lowest.position, credits_available: lowest });
      total.credits_available += part.credits_available;
      total.credits_reserved += part.credits_reserved;
      total.usage.live += part.usage.live;
      total.usage.test += part.usage.test;
      for (const [currency, amount] of Object.entries(part.billed))
        total.billed[currency] = (total.billed[currency] ?? 0) + amount;
      addRecords(total.records, part.records);
      accounts.set(accountId, total);
    }
  }
  const records = new Map([...accounts].map(([accountId, { records }]) => [accountId, records]));
  for (const [accountId, part] of recordsAfter?.accounts ?? []) {
    const total = records.get(accountId) ?? emptyModeRecordTotals();
    addRecords(total, part.records);
    records.set(accountId, total);
  }
  const chainBreaks = [...audits.flatMap((audit) => audit.chain_breaks), ...linkRanges(audits)].sort(
    (a, b) => a.position - b.position,
  );
  const differences = [...compare(accounts, projected, only), ...compareRecords(records, projected.records, only)];
  return {
    holds: chainBreaks.length === 0 && negative.length === 0 && differences.length === 0,
    events: audits.reduce((sum, audit) => sum + audit.events, 0),
    streams: new Set(audits.flatMap((audit) => [...audit.heads.keys()])).size,
    accounts: accounts.size,
    chain_breaks: chainBreaks,
    negative_balances: negative,
    differences,
    usage_records_until: projected.records?.checkpoint ?? null,
  };
}

function addRecords(total: Record<Mode, RecordTotals>, part: Record<Mode, RecordTotals>): void {
  for (const mode of ['live', 'test'] as const) {
    for (const key of Object.keys(part[mode]) as (keyof RecordTotals)[]) total[mode][key] += part[mode][key];
  }
}

/** Checks each range's openings against where the ranges before it left their streams' chains. */
function linkRanges(audits: RangeAudit[]): ChainBreak[] {
  const chain = new ChainChecker();
  const breaks: ChainBreak[] = [];
  for (const audit of audits) {
    for (const event of audit.openings) {
      const reason = chain.checkStored(event);
      if (reason) breaks.push({ stream: event.stream, revision: event.revision, position: event.position, reason });
    }
    for (const [stream, head] of audit.heads) chain.resumeAfter({ stream, ...head });
  }
  return breaks;
}

function compare(
  accounts: Map<string, AccountPartial>,
  projected: ProjectedTotals,
  only: string | undefined,
): AuditDifference[] {
  const ids = new Set([
    ...accounts.keys(),
    ...projected.balances.keys(),
    ...projected.usage.keys(),
    ...projected.billed.keys(),
  ]);
  const differences: AuditDifference[] = [];
  for (const accountId of [...ids].sort()) {
    if (only !== undefined && accountId !== only) continue;
    const replayed = accounts.get(accountId) ?? emptyPartial();
    const checks: [AuditDifference['what'], unknown, unknown][] = [
      [
        'balance',
        { credits_available: replayed.credits_available, credits_reserved: replayed.credits_reserved },
        projected.balances.get(accountId) ?? { credits_available: 0, credits_reserved: 0 },
      ],
      ['usage', replayed.usage, projected.usage.get(accountId) ?? { live: 0, test: 0 }],
      ['billing', replayed.billed, projected.billed.get(accountId) ?? {}],
    ];
    for (const [what, mine, theirs] of checks) {
      if (!sameTotals(mine, theirs))
        differences.push({ account_id: accountId, what, replayed: mine, projected: theirs });
    }
  }
  return differences;
}

function compareRecords(
  replayed: Map<string, Record<Mode, RecordTotals>>,
  stored: StoredRecordTotals | undefined,
  only: string | undefined,
): AuditDifference[] {
  if (!stored) return [];
  const none = emptyModeRecordTotals();
  const differences: AuditDifference[] = [];
  for (const accountId of [...new Set([...replayed.keys(), ...stored.accounts.keys()])].sort()) {
    if (only !== undefined && accountId !== only) continue;
    const mine = replayed.get(accountId) ?? none;
    const theirs = stored.accounts.get(accountId) ?? none;
    if (!sameTotals(mine.live, theirs.live) || !sameTotals(mine.test, theirs.test))
      differences.push({ account_id: accountId, what: 'usage_records', replayed: mine, projected: theirs });
  }
  return differences;
}

function sameTotals(a: unknown, b: unknown): boolean {
  const left = a as Record<string, number>;
  const right = b as Record<string, number>;
  const keys = new Set([...Object.keys(left), ...Object.keys(right)]);
  return [...keys].every((key) => (left[key] ?? 0) === (right[key] ?? 0));
}
