import type { Mode, RecordedEvent } from '../../core/events/envelope.js';
import { isEventOf } from '../../core/events/event-of.js';
import { jobEventTypes, type JobEvent } from '../../core/jobs/events.js';
import type { CreditsReleased, CreditsReserved, CreditsSettled } from '../../core/accounts/credits.js';
import { accountIdOfStream } from '../../core/accounts/account.js';
import type { Projection } from '../runner/projection.js';
import type { HeldReservation, JobView } from '../../core/jobs/jobs-read-model.js';

export type { HeldReservation, JobView } from '../../core/jobs/jobs-read-model.js';

export interface JobsState {
  jobs: Record<string, JobView>;
  /** Job ids per `<account>:<mode>`, in creation order: the list endpoint pages through this. */
  byOwner: Record<string, string[]>;
  /** Held reservations by reference (the job id): the runners settle or release those whose job has ended. */
  heldReservations: Record<string, HeldReservation>;
}

type ReservationEvent = CreditsReserved | CreditsSettled | CreditsReleased;
const reservationEventTypes: readonly ReservationEvent['type'][] = [
  'CreditsReserved',
  'CreditsSettled',
  'CreditsReleased',
];

export const ownerKey = (accountId: string, mode: Mode): string => `${accountId}:${mode}`;

function apply(state: JobsState, event: RecordedEvent): JobsState {
  if (isEventOf<ReservationEvent>(event, reservationEventTypes)) return applyReservation(state, event);
  // The runner hands the projection only the types it handles: anything else is not the jobs' to fold.
  if (!isEventOf<JobEvent>(event, jobEventTypes)) return state;
  if (event.type === 'JobCreated') {
    const data = event.data;
    state.jobs[data.job_id] = {
      id: data.job_id,
      account_id: data.account_id,
      mode: data.mode,
      key_id: data.key_id,
      state: 'queued',
      sector: String(data.config.sector),
      output: data.output,
      estimate: data.estimate,
      progress: data.estimate.tables.map((table) => ({ name: table.name, rows_done: 0, rows_total: table.rows })),
      created_at: data.created_at,
      started_at: null,
      finished_at: null,
      attempt: 0,
      instance_id: null,
      lease_expires_at: null,
      cancel_requested: false,
      failure: null,
      files: [],
      report: null,
      credits_charged: null,
      results_expired_at: null,
    };
    (state.byOwner[ownerKey(data.account_id, data.mode)] ??= []).push(data.job_id);
    return state;
  }
  const job = state.jobs[event.data.job_id];
  if (!job) throw new Error(`${event.type} for unknown job ${event.data.job_id}`);
  switch (event.type) {
    case 'JobStarted':
      Object.assign(job, {
        state: 'running',
        started_at: job.started_at ?? event.data.started_at,
        attempt: event.data.attempt,
        instance_id: event.data.instance_id,
        lease_expires_at: event.data.lease_expires_at,
        progress: job.progress.map((table) => ({ ...table, rows_done: 0 })),
      });
      break;
    case 'JobProgressed':
      Object.assign(job, { progress: event.data.tables, lease_expires_at: event.data.lease_expires_at });
      break;
    case 'JobSucceeded':
      Object.assign(job, {
        state: 'succeeded',
        finished_at: event.data.finished_at,
        files: event.data.files,
        report: event.data.report ?? null,
        credits_charged: event.data.credits,
        progress: job.progress.map((table) => ({ ...table, rows_done: table.rows_total })),
        lease_expires_at: null,
      });
      break;
    case 'JobFailed':
      Object.assign(job, {
        state: 'failed',
        finished_at: event.data.failed_at,
        failure: event.data.problem,
        lease_expires_at: null,
      });
      break;
    case 'JobCancelRequested':
      job.cancel_requested = true;
      break;
    case 'JobCancelled':
      Object.assign(job, { state: 'cancelled', finished_at: event.data.cancelled_at, lease_expires_at: null });
      break;
    case 'JobResultsExpired':
      job.results_expired_at = event.data.expired_at;
      break;
  }
  return state;
}

function applyReservation(state: JobsState, event: RecordedEvent & ReservationEvent): JobsState {
  if (event.type === 'CreditsReserved')
    state.heldReservations[event.data.reference] = { account_id: accountIdOfStream(event.stream)! };
  else delete state.heldReservations[event.data.reference];
  return state;
}

export const jobsProjection: Projection<JobsState> = {
  name: 'jobs',
  version: 3,
  handles: [...jobEventTypes, ...reservationEventTypes],
  initialState: () => ({ jobs: {}, byOwner: {}, heldReservations: {} }),
  apply,
  toJSON: (state) => state,
  fromJSON: (json) => json as JobsState,
};
