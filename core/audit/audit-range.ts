import type { Mode } from '../events/envelope.js';
import { canonicalParts, type StoredEvent } from '../events/hash-chain.js';
import type { EventStore, ReadAllOptions } from '../store/event-store.js';
import { accountIdOfStream } from '../accounts/stream-name.js';
import type { CreditsDebited, CreditsPurchased, CreditsRefunded, CreditsSettled } from '../accounts/credits.js';
import type { SubscriptionRenewed, SubscriptionUpgraded } from '../accounts/subscription.js';
import type { ChainBreak } from './account-audit.js';
import { ChainChecker, type ChainHead } from './chain-checker.js';
import { scalarMembers } from './scalar-members.js';
import { balanceChange, CREDIT_MOVEMENT_TYPES } from '../accounts/credit-movement.js';

/**
 * What an account's usage records of one mode add up to (a record per debit or settlement, marked
 * refunded by a refund of its debit): what the events give, to compare with the records table.
 */
export interface RecordTotals {
  records: number;
  credits: number;
  refunded_records: number;
  refunded_credits: number;
}

/** What one range of the store adds to an account: sums, so that ranges audited apart add up. */
export interface AccountPartial {
  credits_available: number;
  credits_reserved: number;
  /**
   * The lowest running change of the available credits within the range, and where: a balance that
   * dipped below zero shows here.
   */
  lowest: { credits_available: number; position: number };
  usage: Record<Mode, number>;
  billed: Record<string, number>;
  /** From the events at or before the range's `recordsUntil` only. */
  records: Record<Mode, RecordTotals>;
}

export interface RangeAudit {
  events: number;
  chain_breaks: ChainBreak[];
  /**
   * The first event in the range of each stream that began before it, not yet checked: its chain
   * links to the stream's last event in an earlier range, which the audit checks once it has them all.
   */
  openings: StoredEvent[];
  /** Each stream's last event in the range. */
  heads: ReadonlyMap<string, ChainHead>;
  accounts: Map<string, AccountPartial>;
}

export interface AuditRange {
  /** Exclusive. */
  after: number;
  /** Inclusive. */
  until: number;
  /** Only this stream's events. */
  stream?: string;
  /** The records totals count the events up to this position only (the records table's checkpoint). Default: all. */
  recordsUntil?: number;
}

const PAGE = 1000;

/** A page of events as stored; from a store without `readAllStored`, parsed events spelled canonically again. */
async function readStoredPage(store: EventStore, options: ReadAllOptions): Promise<StoredEvent[]> {
  if (store.readAllStored) return store.readAllStored(options);
  return (await store.readAll(options)).map((event) => ({ ...event, ...canonicalParts(event) }));
}

/** The only events whose data the totals depend on: every other event's data is never parsed. */
const FOLDED_TYPES = new Set<string>([
  ...CREDIT_MOVEMENT_TYPES,
  'CreditsPurchased',
  'SubscriptionUpgraded',
  'SubscriptionRenewed',
]);
/** The members of their data that the totals read: the rest is never parsed. */
const FOLDED_MEMBERS = ['credits', 'mode', 'released', 'amount', 'currency'];

/**
 * Audits the events at positions (after, until]: follows each stream's hash chain (from its first
 * event in the range: the link to the event before the range is left to the caller, see `openings`),
 * and sums what each account's events do to its balance, usage and billed totals, from the events alone.
 */
export async function auditRange(store: EventStore, range: AuditRange): Promise<RangeAudit> {
  const chain = new ChainChecker();
  const chainBreaks: ChainBreak[] = [];
  const openings: StoredEvent[] = [];
  // By stream, as the events name it: the account id is cut out of each stream's name once, not per event.
  const partials = new Map<string, AccountPartial | null>();
  let events = 0;
  for (let after = range.after; after < range.until;) {
    const page = await readStoredPage(store, { after, maxCount: Math.min(PAGE, range.until - after) });
    for (const event of page) {
      if (event.position > range.until) break;
      if (range.stream !== undefined && event.stream !== range.stream) continue;
      events += 1;
      // A stream's first event in the range is where the chain checker first sees it too: one lookup tells both.
      let partial = partials.get(event.stream);
      const firstInRange = partial === undefined;
      if (firstInRange)
        partials.set(event.stream, (partial = accountIdOfStream(event.stream) === null ? null : emptyPartial()));
      if (firstInRange && event.revision > 0) {
        openings.push(event);
        chain.resumeAfter(event);
      } else {
        const reason = chain.checkStored(event);
        if (reason)
          chainBreaks.push({ stream: event.stream, revision: event.revision, position: event.position, reason });
      }
      if (partial) fold(partial, event, range.recordsUntil ?? Infinity);
    }
    if (page.length === 0) break;
    after = page.at(-1)!.position;
  }
  const accounts = new Map<string, AccountPartial>();
  for (const [stream, partial] of partials) if (partial !== null) accounts.set(accountIdOfStream(stream)!, partial);
  return { events, chain_breaks: chainBreaks, openings, heads: chain.lastSeen(), accounts };
}

/** The store cut into chunks of positions that threads take in turn, each the next one left. */
export interface ChunkedRange {
  until: number;
  stream?: string;
  recordsUntil?: number;
  /** How many threads take chunks: each chunk is a share of what is left per thread. */
  threads: number;
  /** The smallest chunk taken. */
  minChunk: number;
  /** The last position of the chunks taken so far, shared by every thread of the audit. */
  taken: BigInt64Array<SharedArrayBuffer>;
}

export interface ChunkAudit {
  /** The chunk's first position: the order in which the chunks add up. */
  chunk: number;
  audit: RangeAudit;
}

/**
 * Audits chunks of the store until none is left. Threads that take chunks as they finish, rather than
 * one fixed range each, end together whatever each spent starting up or lost to other load; chunks that
 * shrink with what is left (a share of it per thread) make the last ones short, so that no thread
 * waits long at the end for another's last chunk, while the first ones are few and large.
 */
export async function auditChunks(store: EventStore, range: ChunkedRange): Promise<ChunkAudit[]> {
  const audits: ChunkAudit[] = [];
  for (let chunk = takeChunk(range); chunk; chunk = takeChunk(range)) {
    audits.push({
      chunk: chunk.after,
      audit: await auditRange(store, { ...chunk, stream: range.stream, recordsUntil: range.recordsUntil }),
    });
  }
  return audits;
}

function takeChunk(range: ChunkedRange): { after: number; until: number } | null {
  for (;;) {
    const taken = Atomics.load(range.taken, 0);
    const after = Number(taken);
    if (after >= range.until) return null;
    const until = Math.min(
      range.until,
      after + Math.max(range.minChunk, Math.ceil((range.until - after) / (2 * range.threads))),
    );
    if (Atomics.compareExchange(range.taken, 0, taken, BigInt(until)) === taken) return { after, until };
  }
}

export function emptyPartial(): AccountPartial {
  return {
    credits_available: 0,
    credits_reserved: 0,
    lowest: { credits_available: 0, position: 0 },
    usage: { live: 0, test: 0 },
    billed: {},
    records: emptyModeRecordTotals(),
  };
}

export function emptyRecordTotals(): RecordTotals {
  return { records: 0, credits: 0, refunded_records: 0, refunded_credits: 0 };
}

/** No records yet, in either mode. */
export function emptyModeRecordTotals(): Record<Mode, RecordTotals> {
  return { live: emptyRecordTotals(), test: emptyRecordTotals() };
}

function fold(account: AccountPartial, stored: StoredEvent, recordsUntil: number): void {
  if (!FOLDED_TYPES.has(stored.type)) return;
  const event = {
    type: stored.type,
    data: scalarMembers(stored.data, FOLDED_MEMBERS) ?? (JSON.parse(stored.data) as unknown),
  };
  switch (event.type) {
    case 'CreditsDebited':
    case 'CreditsSettled': {
      const { mode, credits } = event.data as (CreditsDebited | CreditsSettled)['data'];
      account.usage[mode] += credits;
      if (stored.position <= recordsUntil) {
        account.records[mode].records += 1;
        account.records[mode].credits += credits;
      }
      break;
    }
    case 'CreditsRefunded': {
      const { mode, credits } = event.data as CreditsRefunded['data'];
      account.usage[mode] -= credits;
      // A refund marks its debit's record, of the same credits (the decider refunds a debit whole).
      if (stored.position <= recordsUntil) {
        account.records[mode].refunded_records += 1;
        account.records[mode].refunded_credits += credits;
      }
      break;
    }
    case 'CreditsPurchased':
    case 'SubscriptionUpgraded':
    case 'SubscriptionRenewed': {
      const { amount, currency } = event.data as (
        CreditsPurchased | SubscriptionUpgraded | SubscriptionRenewed
      )['data'];
      if (amount > 0) account.billed[currency] = (account.billed[currency] ?? 0) + amount;
      break;
    }
  }
  const change = balanceChange(event);
  if (!change) return;
  account.credits_available += change.available;
  account.credits_reserved += change.reserved;
  if (account.credits_available < account.lowest.credits_available) {
    account.lowest.credits_available = account.credits_available;
    account.lowest.position = stored.position;
  }
}
