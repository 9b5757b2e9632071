import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { jobDecider, jobStream, type JobState } from './job.js';
import { ProblemError } from '../problems.js';
import type { JobsReadModel, JobView } from './jobs-read-model.js';
import { ReservationReconciler } from './reconcile-reservations.js';
import { removeJobDirectory } from './result-files.js';
import { runJob, type JobContext } from './run-job.js';

export interface JobRunnerOptions extends Omit<JobContext, 'instanceId' | 'pollMs' | 'onError'> {
  /** The jobs read model as it is now: where queued and orphaned jobs are found. */
  jobs: () => JobsReadModel;
  /** Jobs this instance runs at once. */
  maxJobs: number;
  retentionMs: number;
  instanceId?: string;
  /** How often the runner looks for work, and each running job for a cancel request (default 200 ms). */
  pollMs?: number;
  onError?: (error: unknown) => void;
}

/** How often results are checked for expiry: retention is counted in hours, not milliseconds. */
const EXPIRY_SWEEP_MS = 60_000;

/**
 * One per service instance. Claims queued jobs by appending their start with the revision it read
 * (of several instances racing for a job exactly one append succeeds), takes over jobs whose lease
 * expired, finishes cancels that a dead runner left pending, closes the credit reservations a dead
 * instance left held, and removes results past retention.
 */
export class JobRunner {
  readonly instanceId: string;
  private readonly context: JobContext;
  private readonly reservations: ReservationReconciler;
  private readonly active = new Map<string, Promise<void>>();
  private readonly stopping = new AbortController();
  private loop: Promise<void> | undefined;
  private lastSweep = 0;
  private handOver = false;

  constructor(private readonly options: JobRunnerOptions) {
    this.instanceId = options.instanceId ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
    this.context = {
      ...options,
      instanceId: this.instanceId,
      pollMs: options.pollMs ?? 200,
      onError: options.onError ?? (() => {}),
    };
    this.reservations = new ReservationReconciler(this.context);
  }

  start(): void {
    this.loop ??= this.follow();
  }

  /**
   * Stops claiming and stops the jobs in hand, removing their part files. With `handOver` their leases
   * end at once (a graceful shutdown: another instance takes them over at its next poll); without, they
   * are left to expire, as when an instance dies.
   */
  async stop({ handOver = false } = {}): Promise<void> {
    this.handOver = handOver;
    this.stopping.abort();
    await this.loop;
    await Promise.all(this.active.values());
  }

  /** Jobs this instance is running now. */
  running(): string[] {
    return [...this.active.keys()];
  }

  private async follow(): Promise<void> {
    while (!this.stopping.signal.aborted) {
      try {
        await this.tick();
      } catch (error) {
        this.context.onError(error);
      }
      await sleep(this.context.pollMs, undefined, { signal: this.stopping.signal }).catch(() => undefined);
    }
  }

  private async tick(): Promise<void> {
    const now = this.options.clock.now();
    for (const job of this.options.jobs().claimable(now)) {
      if (this.active.size >= this.options.maxJobs || this.stopping.signal.aborted) break;
      if (this.active.has(job.id)) continue;
      if (job.cancel_requested) await this.finishOrphanedCancel(job);
      else await this.claim(job);
    }
    await this.reservations.reconcile(this.options.jobs());
    if (now.getTime() - this.lastSweep >= EXPIRY_SWEEP_MS) {
      this.lastSweep = now.getTime();
      await this.expireResults(now);
    }
  }

  private async claim(job: JobView): Promise<void> {
    const at = this.options.clock.now().toISOString();
    const claimed = await this.attempt(() =>
      this.options.commands.handle(jobDecider, jobStream(job.id), {
        type: 'ClaimJob',
        instanceId: this.instanceId,
        at,
        leaseMs: this.options.leaseMs,
      }),
    );
    if (!claimed) return;
    const run = runJob(this.context, claimed.state as JobState, this.stopping.signal, () => this.handOver)
      .catch((error: unknown) => this.context.onError(error))
      .finally(() => this.active.delete(job.id));
    this.active.set(job.id, run);
  }

  /** The runner of a job died after a cancel was asked: nobody will confirm it but us. */
  private async finishOrphanedCancel(job: JobView): Promise<void> {
    // Confirmed first: a holder still settling (the projection behind) refuses it, and its settle stands.
    // Released after; if this process dies in between, the reconciler releases a cancelled job's reservation.
    const at = this.options.clock.now().toISOString();
    const cancelled = await this.attempt(() =>
      this.options.commands.handle(jobDecider, jobStream(job.id), {
        type: 'ConfirmCancel',
        instanceId: this.instanceId,
        at,
      }),
    );
    if (!cancelled?.events.length) return;
    await this.options.credits.release(job.account_id, job.id, 'job cancelled');
    await removeJobDirectory(this.options.resultsDir, job.id);
  }

  private async expireResults(now: Date): Promise<void> {
    for (const job of this.options.jobs().withExpiredResults(now, this.options.retentionMs)) {
      await removeJobDirectory(this.options.resultsDir, job.id);
      await this.options.commands.handle(jobDecider, jobStream(job.id), {
        type: 'ExpireResults',
        at: this.options.clock.now().toISOString(),
      });
    }
  }

  /** A command another instance beat us to is refused with a problem: not an error, just not ours. */
  private async attempt<T>(command: () => Promise<T>): Promise<T | null> {
    try {
      return await command();
    } catch (error) {
      if (error instanceof ProblemError) return null;
      throw error;
    }
  }
}
