import type { Clock } from '../clock.js';
import type { JobsReadModel, UnclosedReservation } from './jobs-read-model.js';
import { chargesFor } from './charges.js';
import type { JobCredits } from './ports.js';
import { removeJobDirectory } from './result-files.js';

/**
 * How long a reservation may wait for its job to be created. The service appends the job right after
 * the reservation; one still without its job after this was left by an instance that died between the
 * two, and would otherwise hold its credits and its concurrent-job slot forever.
 */
export const ORPHANED_RESERVATION_MS = 60_000;

/**
 * Closes the reservations that nothing else will: a job that ended without its credit command (its
 * instance died in between, or the store refused the command) is settled when it succeeded and
 * released when it failed or was cancelled, its files removed as its runner would have; a reservation
 * without a job is released once ORPHANED_RESERVATION_MS have passed. Every command is idempotent on the
 * job id, so the runners of a fleet may all do it at once. Each runner does it at every poll, so a
 * reservation is closed within a poll of the projection showing the job's end.
 */
export class ReservationReconciler {
  /** When this runner first saw each reservation without a job, by its clock. */
  private readonly orphanedSince = new Map<string, number>();

  constructor(
    private readonly deps: { credits: JobCredits; clock: Clock; resultsDir: string; onError: (error: unknown) => void },
  ) {}

  async reconcile(jobs: JobsReadModel): Promise<void> {
    const now = this.deps.clock.now().getTime();
    const orphans = new Set<string>();
    for (const reservation of jobs.unclosedReservations()) {
      if (!reservation.job) {
        orphans.add(reservation.reference);
        const since = this.orphanedSince.get(reservation.reference) ?? now;
        this.orphanedSince.set(reservation.reference, since);
        if (now - since < ORPHANED_RESERVATION_MS) continue;
      }
      // One reservation that cannot be closed (a store hiccup) must not keep the others held.
      await this.close(reservation).catch(this.deps.onError);
    }
    for (const reference of this.orphanedSince.keys())
      if (!orphans.has(reference)) this.orphanedSince.delete(reference);
  }

  private async close({ reference, account_id, job }: UnclosedReservation): Promise<void> {
    const { credits, resultsDir } = this.deps;
    if (!job) await credits.release(account_id, reference, 'the job was never created');
    else if (job.state === 'succeeded')
      await credits.settle(account_id, reference, { tables: chargesFor(job.estimate, job.files) });
    else {
      await credits.release(account_id, reference, `job ${job.state}`);
      // The credits first: a directory that cannot be removed (reported) must not keep them held.
      await removeJobDirectory(resultsDir, reference);
    }
  }
}
