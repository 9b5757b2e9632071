import type { RecordedEvent } from '../events/envelope.js';
import type { Balance } from '../accounts/credits-service.js';
import { ChainChecker } from './chain-checker.js';
import { balanceChange } from '../accounts/credit-movement.js';

/** One credit movement of the account's history, replayed, with the balance it leaves. */
export interface AuditedMovement {
  position: number;
  revision: number;
  type: string;
  reference: string;
  recorded_at: string;
  change: { credits_available: number; credits_reserved: number };
  credits_available: number;
  credits_reserved: number;
  hash: string;
  /** False when this event's stored content no longer matches its hash. */
  hash_valid: boolean;
}

export interface ChainBreak {
  stream: string;
  revision: number;
  position: number;
  reason: string;
}

export interface AccountAuditVerdict {
  /** True only if the chain is intact and the replayed balance equals the projection's. */
  holds: boolean;
  chain_intact: boolean;
  chain_breaks: ChainBreak[];
  events: number;
  replayed: Balance;
  projected: Balance;
  balance_matches: boolean;
}

export interface AccountAudit {
  verdict: AccountAuditVerdict;
  movements: AuditedMovement[];
}

/**
 * Replays an account's stream from its first event: every credit movement with its running balance,
 * every event's place in the hash chain, and the verdict against the balance a projection shows.
 * Test-mode work moves no credit and is not a movement.
 */
export function auditAccount(stream: string, events: readonly RecordedEvent[], projected: Balance): AccountAudit {
  const chain = new ChainChecker();
  const chainBreaks: ChainBreak[] = [];
  const movements: AuditedMovement[] = [];
  const balance: Balance = { credits_available: 0, credits_reserved: 0 };
  for (const event of events) {
    const reason = chain.check(event);
    if (reason) chainBreaks.push({ stream, revision: event.revision, position: event.position, reason });
    const change = balanceChange(event);
    if (!change) continue;
    balance.credits_available += change.available;
    balance.credits_reserved += change.reserved;
    movements.push({
      position: event.position,
      revision: event.revision,
      type: event.type,
      reference: (event.data as { reference: string }).reference,
      recorded_at: event.recorded_at,
      change: { credits_available: change.available, credits_reserved: change.reserved },
      ...balance,
      hash: event.hash,
      hash_valid: reason === null,
    });
  }
  const balanceMatches =
    balance.credits_available === projected.credits_available &&
    balance.credits_reserved === projected.credits_reserved;
  return {
    verdict: {
      holds: chainBreaks.length === 0 && balanceMatches,
      chain_intact: chainBreaks.length === 0,
      chain_breaks: chainBreaks,
      events: events.length,
      replayed: balance,
      projected,
      balance_matches: balanceMatches,
    },
    movements,
  };
}
