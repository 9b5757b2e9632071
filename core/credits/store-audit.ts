import type { Mode, RecordedEvent } from '../events/envelope.js';
import type { EventStore } from '../store/event-store.js';
import { accountIdOfStream } from '../domain/account/index.js';
import type { CreditsDebited, CreditsPurchased, CreditsRefunded, CreditsSettled } from '../domain/account/credits.js';
import type { SubscriptionRenewed, SubscriptionUpgraded } from '../domain/account/subscription.js';
import { ChainChecker } from './chain-checker.js';
import type { ChainBreak } from './account-audit.js';
import type { Balance } from './credits-service.js';
import { balanceChange } from './movement.js';

/** What the live read models say, per account: the audit's replay must find exactly the same. */
export interface ProjectedTotals {
  balances: ReadonlyMap<string, Balance>;
  usage: ReadonlyMap<string, Record<Mode, number>>;
  billed: ReadonlyMap<string, Record<string, number>>;
}

export interface AuditDifference {
  account_id: string;
  what: 'balance' | 'usage' | 'billing';
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
  /** Points where a replayed balance went below zero (it never may). */
  negative_balances: { account_id: string; position: number; credits_available: number }[];
  differences: AuditDifference[];
}

interface Replayed {
  balance: Balance;
  usage: Record<Mode, number>;
  billed: Record<string, number>;
}

const PAGE = 10_000;

/**
 * The full audit: reads the store from its first event, follows every stream's hash chain, recomputes
 * every account's balance, usage total (live and test) and billed total from the events alone, and
 * compares them with the projections. `accountId` limits it to one account.
 */
export async function auditStore(store: EventStore, projected: ProjectedTotals, options: { accountId?: string } = {}): Promise<StoreAuditReport> {
  const chain = new ChainChecker();
  const chainBreaks: ChainBreak[] = [];
  const negative: StoreAuditReport['negative_balances'] = [];
  const accounts = new Map<string, Replayed>();
  const onlyStream = options.accountId === undefined ? undefined : `account-${options.accountId}`;
  let events = 0;
  for (let after = 0; ; ) {
    const page = await store.readAll({ after, maxCount: PAGE });
    for (const event of page) {
      if (onlyStream !== undefined && event.stream !== onlyStream) continue;
      events += 1;
      const reason = chain.check(event);
      if (reason) chainBreaks.push({ stream: event.stream, revision: event.revision, position: event.position, reason });
      const accountId = accountIdOfStream(event.stream);
      if (accountId === null) continue;
      const account = replay(accounts, accountId, event);
      if (account && account.balance.credits_available < 0) negative.push({ account_id: accountId, position: event.position, credits_available: account.balance.credits_available });
    }
    if (page.length < PAGE) break;
    after = page.at(-1)!.position;
  }
  const differences = compare(accounts, projected, options.accountId);
  return {
    holds: chainBreaks.length === 0 && negative.length === 0 && differences.length === 0,
    events,
    streams: chain.streams,
    accounts: accounts.size,
    chain_breaks: chainBreaks,
    negative_balances: negative,
    differences,
  };
}

/** Folds one event into its account's replayed totals; returns them when the event moved credits. */
function replay(accounts: Map<string, Replayed>, accountId: string, event: RecordedEvent): Replayed | undefined {
  let account = accounts.get(accountId);
  if (!account) accounts.set(accountId, (account = { balance: { credits_available: 0, credits_reserved: 0 }, usage: { live: 0, test: 0 }, billed: {} }));
  switch (event.type) {
    case 'CreditsDebited':
    case 'CreditsSettled': {
      const { mode, credits } = event.data as (CreditsDebited | CreditsSettled)['data'];
      account.usage[mode] += credits;
      break;
    }
    case 'CreditsRefunded': {
      const { mode, credits } = event.data as CreditsRefunded['data'];
      account.usage[mode] -= credits;
      break;
    }
    case 'CreditsPurchased':
    case 'SubscriptionUpgraded':
    case 'SubscriptionRenewed': {
      const { amount, currency } = event.data as (CreditsPurchased | SubscriptionUpgraded | SubscriptionRenewed)['data'];
      if (amount > 0) account.billed[currency] = (account.billed[currency] ?? 0) + amount;
      break;
    }
  }
  const change = balanceChange(event);
  if (!change) return undefined;
  account.balance.credits_available += change.available;
  account.balance.credits_reserved += change.reserved;
  return account;
}

function compare(accounts: Map<string, Replayed>, projected: ProjectedTotals, only: string | undefined): AuditDifference[] {
  const ids = new Set([...accounts.keys(), ...projected.balances.keys(), ...projected.usage.keys(), ...projected.billed.keys()]);
  const differences: AuditDifference[] = [];
  for (const accountId of [...ids].sort()) {
    if (only !== undefined && accountId !== only) continue;
    const replayed = accounts.get(accountId) ?? { balance: { credits_available: 0, credits_reserved: 0 }, usage: { live: 0, test: 0 }, billed: {} };
    const checks: [AuditDifference['what'], unknown, unknown][] = [
      ['balance', replayed.balance, projected.balances.get(accountId) ?? { credits_available: 0, credits_reserved: 0 }],
      ['usage', replayed.usage, projected.usage.get(accountId) ?? { live: 0, test: 0 }],
      ['billing', replayed.billed, projected.billed.get(accountId) ?? {}],
    ];
    for (const [what, mine, theirs] of checks) {
      if (!sameTotals(mine, theirs)) differences.push({ account_id: accountId, what, replayed: mine, projected: theirs });
    }
  }
  return differences;
}

function sameTotals(a: unknown, b: unknown): boolean {
  const left = a as Record<string, number>;
  const right = b as Record<string, number>;
  const keys = new Set([...Object.keys(left), ...Object.keys(right)]);
  return [...keys].every((key) => (left[key] ?? 0) === (right[key] ?? 0));
}
