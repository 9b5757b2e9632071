import type { EventMetadata, Mode } from '../events/envelope.js';
import type { CommandHandler, CommandResult } from '../commands/command-handler.js';
import { accountDecider, accountStream, type AccountCommand, type AccountEvent, type AccountState } from './account.js';
import type { ConcurrentJobLimits, TableCharge } from './credits.js';
import { KeyedQueue } from './keyed-queue.js';

export type { TableCharge };

export interface Balance {
  credits_available: number;
  credits_reserved: number;
}

/** The outcome of a credit command: where its append landed (for read-your-writes) and the balance after it. */
export interface CreditMovementResult extends Balance {
  /** Global position of the append; the stream's head when the command was a retry and appended nothing. */
  position: number;
}

export interface GrantRequest {
  accountId: string;
  amount: number;
  reference: string;
  reason: string;
}

export interface DebitRequest {
  accountId: string;
  mode: Mode;
  keyId: string | null;
  /** The request id (or Idempotency-Key) of the work: a retry with it is not charged again. */
  reference: string;
  operation: string;
  sector: string;
  tables: TableCharge[];
  credits: number;
  /** Debits of earlier attempts of the same request, refunded in the same append (see DebitCredits). */
  supersedes?: readonly string[];
}

export interface ReserveRequest {
  accountId: string;
  mode: Mode;
  keyId: string | null;
  /** The job id. */
  reference: string;
  sector: string;
  tables: TableCharge[];
  credits: number;
  /**
   * The tiers' concurrent-job limits: a held reservation is a job's slot, and one over the limit of
   * the account's tier (per mode) is refused with 429 `concurrent-job-limit`. Omitted: no limit.
   */
  concurrentJobs?: ConcurrentJobLimits;
}

/**
 * The credits of accounts, as the rest of the service calls them (the contract in docs/credits.md).
 * Each method is one command on the account stream; a live debit or reservation that needs more than
 * is available throws the 402 `insufficient-credits` ProblemError and appends nothing.
 */
export class CreditsService {
  private readonly queue = new KeyedQueue();

  constructor(private readonly commands: CommandHandler) {}

  grant({ accountId, amount, reference, reason }: GrantRequest): Promise<CreditMovementResult> {
    return this.execute(accountId, { type: 'GrantCredits', reference, credits: amount, reason });
  }

  debit({ accountId, ...debit }: DebitRequest): Promise<CreditMovementResult> {
    const metadata = { key_id: debit.keyId ?? undefined, mode: debit.mode };
    return this.execute(accountId, { type: 'DebitCredits', ...debit }, metadata);
  }

  /** Gives back a debit in full (work that failed after it was charged). */
  refund(accountId: string, reference: string, reason: string): Promise<CreditMovementResult> {
    return this.execute(accountId, { type: 'RefundCredits', reference, reason });
  }

  reserve(request: ReserveRequest): Promise<CreditMovementResult> {
    return this.execute(request.accountId, reserveCommand(request), {
      key_id: request.keyId ?? undefined,
      mode: request.mode,
    });
  }

  /**
   * Throws what `reserve` would throw now (402 `insufficient-credits`, 429 `concurrent-job-limit`) and
   * appends nothing: work that must come before the reservation, and may be long, is then never done
   * for a request that cannot be reserved. `reserve` decides again on the state it appends to.
   */
  async checkReservable(request: ReserveRequest): Promise<void> {
    accountDecider.decide(reserveCommand(request), await this.account(request.accountId));
  }

  /** Charges what was produced (never more than was reserved) and releases the rest. */
  settle(accountId: string, reference: string, { tables }: { tables: TableCharge[] }): Promise<CreditMovementResult> {
    return this.execute(accountId, { type: 'SettleCredits', reference, tables });
  }

  release(accountId: string, reference: string, reason: string): Promise<CreditMovementResult> {
    return this.execute(accountId, { type: 'ReleaseCredits', reference, reason });
  }

  /** Read from the account stream itself: the balance the next decision will be taken on. */
  async balance(accountId: string): Promise<Balance> {
    return balanceOf(await this.account(accountId));
  }

  /** Runs any account command in the account's queue: the billing service's subscription commands too. */
  run(
    accountId: string,
    command: AccountCommand,
    metadata: EventMetadata = {},
  ): Promise<CommandResult<AccountState, AccountEvent>> {
    return this.queue.run(accountId, () =>
      this.commands.handle(accountDecider, accountStream(accountId), command, { metadata }),
    );
  }

  /** The account folded from its stream. */
  async account(accountId: string): Promise<AccountState> {
    return (await this.commands.load(accountDecider, accountStream(accountId))).state;
  }

  private async execute(
    accountId: string,
    command: AccountCommand,
    metadata?: EventMetadata,
  ): Promise<CreditMovementResult> {
    const result = await this.run(accountId, command, metadata);
    return { position: result.position, ...balanceOf(result.state) };
  }
}

function balanceOf(state: AccountState): Balance {
  return { credits_available: state.credits.available, credits_reserved: state.credits.reserved };
}

function reserveCommand({
  reference,
  mode,
  keyId,
  sector,
  tables,
  credits,
  concurrentJobs,
}: ReserveRequest): AccountCommand {
  return {
    type: 'ReserveCredits',
    reference,
    mode,
    keyId,
    sector,
    tables,
    credits,
    concurrentJobs: concurrentJobs ?? null,
  };
}
