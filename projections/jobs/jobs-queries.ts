import type { Mode } from '../../core/events/envelope.js';
import { ownMember } from '../../core/own-member.js';
import { FINISHED_STATES, type JobStatus } from '../../core/jobs/state.js';
import type { JobsReadModel, UnclosedReservation } from '../../core/jobs/jobs-read-model.js';
import { ownerKey, type JobsState, type JobView } from './jobs.js';

export interface JobListFilter {
  state?: JobStatus;
  /** Inclusive lower bound on `created_at`. */
  createdFrom?: string;
  /** Exclusive upper bound on `created_at`. */
  createdTo?: string;
}

/** The owner's jobs, newest first: every one, whatever its state (a list pages over them, filtered by `jobMatches`). */
function ownerJobs(state: JobsState, accountId: string, mode: Mode): JobView[] {
  const ids = state.byOwner[ownerKey(accountId, mode)] ?? [];
  return ids.map((id) => state.jobs[id]).reverse();
}

/** Whether a job passes a list's filter. */
export function jobMatches(filter: JobListFilter): (job: JobView) => boolean {
  return (job) =>
    (!filter.state || job.state === filter.state) &&
    (!filter.createdFrom || job.created_at >= filter.createdFrom) &&
    (!filter.createdTo || job.created_at < filter.createdTo);
}

/**
 * What a runner may act on at `now`, oldest first: queued jobs, and running jobs whose lease has
 * expired (their runner died), which are either taken over or, when a cancel is pending, cancelled.
 */
function claimableJobs(state: JobsState, now: Date): JobView[] {
  const at = now.toISOString();
  return Object.values(state.jobs)
    .filter(
      (job) =>
        job.state === 'queued' ||
        (job.state === 'running' && job.lease_expires_at !== null && job.lease_expires_at <= at),
    )
    .sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id));
}

/** Succeeded jobs whose results were kept for `retentionMs` and are still on disk. */
function jobsWithExpiredResults(state: JobsState, now: Date, retentionMs: number): JobView[] {
  const cutoff = new Date(now.getTime() - retentionMs).toISOString();
  return Object.values(state.jobs).filter(
    (job) => job.state === 'succeeded' && job.results_expired_at === null && job.finished_at! <= cutoff,
  );
}

/**
 * Held reservations that nothing will close in the normal course: their job has ended (an instance
 * died between the job's last event and the credit command), or has no job at all (it died between
 * the reservation and the job's creation, or the creation is still on its way).
 */
function unclosedReservations(state: JobsState): UnclosedReservation[] {
  const unclosed: UnclosedReservation[] = [];
  for (const [reference, held] of Object.entries(state.heldReservations)) {
    const job = state.jobs[reference];
    if (!job || FINISHED_STATES.includes(job.state)) unclosed.push({ reference, ...held, job });
  }
  return unclosed;
}

/** The jobs read model as the jobs concept reads it (its port), over the projection's state. */
export function jobsReadModel(state: JobsState): JobsReadModel {
  return {
    job: (jobId) => ownMember(state.jobs, jobId),
    ownerJobs: (accountId, mode) => ownerJobs(state, accountId, mode),
    claimable: (now) => claimableJobs(state, now),
    withExpiredResults: (now, retentionMs) => jobsWithExpiredResults(state, now, retentionMs),
    unclosedReservations: () => unclosedReservations(state),
    holdsReservation: (jobId) => ownMember(state.heldReservations, jobId) !== undefined,
  };
}
