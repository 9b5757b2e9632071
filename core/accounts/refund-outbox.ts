import { createHash, randomBytes } from 'node:crypto';
import { mkdir, open, readdir, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ProblemError } from '../problems.js';
import type { CreditsService } from './credits-service.js';

/** A debit to give back: work that failed after it was charged. */
export interface OwedRefund {
  accountId: string;
  reference: string;
  reason: string;
}

export interface RefundOutboxOptions {
  /** Where owed refunds wait for the store, one file each: the instance's data folder. */
  directory: string;
  credits: Pick<CreditsService, 'refund'>;
  /** A refund the store could not take yet, one the account refused for good, or a file that cannot be read. */
  onError: (error: unknown, context: Record<string, string>) => void;
}

/** How often refunds kept on disk are offered to the store again: what bounds convergence after an outage. */
export const REFUND_RETRY_MS = 2000;

/**
 * Refunds that survive the store being down and the process dying. A refund is written to disk (synced,
 * then renamed into place, so that no reader sees half of one) before it is appended, and removed once
 * the store holds it; what is left is appended again by `drain`, at start and every REFUND_RETRY_MS.
 *
 * A refund is idempotent on its debit's reference (the decider appends nothing for a refunded debit), so
 * a refund appended twice (before a crash, then by the drain; or by two instances on one data folder)
 * gives the credits back once.
 */
export class RefundOutbox {
  private readonly stopping = new AbortController();
  private loop: Promise<void> | undefined;

  constructor(private readonly options: RefundOutboxOptions) {}

  /**
   * Gives the debit back: 'refunded' when the store took it now, 'kept' when it is on disk for the drain
   * (the store was unreachable). The account's refusal (an unknown reference) is thrown, as the credits
   * service throws it, and nothing is kept. A disk that cannot keep it (full) is reported, and the refund
   * appended all the same: only when both fail is it lost, and the store's error thrown.
   */
  async refund(owed: OwedRefund): Promise<'refunded' | 'kept'> {
    const context = { account_id: owed.accountId, reference: owed.reference };
    const file = await this.keep(owed).catch((error: unknown) => {
      this.options.onError(error, context);
      return null;
    });
    try {
      await this.options.credits.refund(owed.accountId, owed.reference, owed.reason);
    } catch (error) {
      // Refused by the account, it would be refused again; a store error with nothing on disk is the caller's.
      if (error instanceof ProblemError || file === null) {
        if (file) await rm(file, { force: true });
        throw error;
      }
      this.options.onError(error, context);
      return 'kept';
    }
    if (file) await this.forget(file);
    return 'refunded';
  }

  /**
   * Appends the refunds kept on disk, until the first the store cannot take (the others would wait for it
   * too); answers how many it took.
   */
  async drain(): Promise<number> {
    let taken = 0;
    for (const name of await this.keptFiles()) {
      const file = join(this.options.directory, name);
      let owed: OwedRefund | null;
      try {
        owed = await readOwed(file);
      } catch (error) {
        this.options.onError(error, { file });
        continue;
      }
      // Removed meanwhile by the instance that appended it (one data folder, two instances).
      if (owed === null) continue;
      try {
        await this.options.credits.refund(owed.accountId, owed.reference, owed.reason);
        taken += 1;
      } catch (error) {
        this.options.onError(error, { account_id: owed.accountId, reference: owed.reference });
        if (!(error instanceof ProblemError)) break;
      }
      // Taken, or refused for good by the account: either way nothing is owed any more.
      await this.forget(file);
    }
    return taken;
  }

  /** Drains now, then every REFUND_RETRY_MS until stopped. */
  start(): void {
    this.loop ??= (async () => {
      while (!this.stopping.signal.aborted) {
        const { directory, onError } = this.options;
        await this.drain().catch((error: unknown) => onError(error, { directory }));
        await sleep(REFUND_RETRY_MS, undefined, { signal: this.stopping.signal }).catch(() => undefined);
      }
    })();
  }

  async stop(): Promise<void> {
    this.stopping.abort();
    await this.loop;
  }

  /** The store holds the refund: a file that cannot be removed now is appended again by a drain, a no-op. */
  private async forget(file: string): Promise<void> {
    await rm(file, { force: true }).catch((error: unknown) => this.options.onError(error, { file }));
  }

  /** Durable before it returns: a process that dies right after still owes the refund at its next start. */
  private async keep(owed: OwedRefund): Promise<string> {
    const { directory } = this.options;
    await mkdir(directory, { recursive: true });
    const name = createHash('sha256').update(`${owed.accountId}\n${owed.reference}`).digest('hex');
    const file = join(directory, `${name}.json`);
    const partial = join(directory, `.${randomBytes(8).toString('hex')}.partial`);
    const handle = await open(partial, 'w');
    try {
      await handle.writeFile(JSON.stringify(owed));
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(partial, file);
    return file;
  }

  private async keptFiles(): Promise<string[]> {
    try {
      return (await readdir(this.options.directory)).filter((name) => name.endsWith('.json'));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
  }
}

/**
 * The refund a file holds; null when it is gone. A file that holds none (written by something else) is
 * set aside under another name, so that it is reported once and kept for an operator to look at.
 */
async function readOwed(file: string): Promise<OwedRefund | null> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  const owed = parseOwed(text);
  if (owed) return owed;
  await rename(file, `${file}.unreadable`);
  throw new Error(`${file} holds no refund; set aside as ${file}.unreadable`);
}

function parseOwed(text: string): OwedRefund | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  if (!('accountId' in value && 'reference' in value && 'reason' in value)) return null;
  const { accountId, reference, reason } = value;
  if (typeof accountId !== 'string' || typeof reference !== 'string' || typeof reason !== 'string') return null;
  return { accountId, reference, reason };
}
