import type { JobCreated, JobEvent, ResultFile, StoredProblem, TableProgress } from './events.js';

export type JobStatus = 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';
export const JOB_STATES: readonly JobStatus[] = ['queued', 'running', 'succeeded', 'failed', 'cancelled'];
export const FINISHED_STATES: readonly JobStatus[] = ['succeeded', 'failed', 'cancelled'];

/** Who holds a running job, and until when: a runner whose lease has passed may be taken over. */
export interface Lease {
  instanceId: string;
  attempt: number;
  expiresAt: string;
}

export interface JobState {
  /** null until JobCreated. */
  status: JobStatus | null;
  created: JobCreated['data'] | null;
  lease: Lease | null;
  progress: TableProgress[];
  cancelRequested: boolean;
  startedAt: string | null;
  finishedAt: string | null;
  files: ResultFile[];
  problem: StoredProblem | null;
  resultsExpired: boolean;
}

export const initialJobState = (): JobState => ({
  status: null,
  created: null,
  lease: null,
  progress: [],
  cancelRequested: false,
  startedAt: null,
  finishedAt: null,
  files: [],
  problem: null,
  resultsExpired: false,
});

export function evolveJob(state: JobState, event: JobEvent): JobState {
  switch (event.type) {
    case 'JobCreated':
      return {
        ...state,
        status: 'queued',
        created: event.data,
        progress: event.data.estimate.tables.map((table) => ({
          name: table.name,
          rows_done: 0,
          rows_total: table.rows,
        })),
      };
    case 'JobStarted': {
      const { instance_id, attempt, lease_expires_at, started_at } = event.data;
      return {
        ...state,
        status: 'running',
        lease: { instanceId: instance_id, attempt, expiresAt: lease_expires_at },
        // A takeover starts again from the first row: the plan is deterministic, the bytes the same.
        progress: state.progress.map((table) => ({ ...table, rows_done: 0 })),
        startedAt: state.startedAt ?? started_at,
      };
    }
    case 'JobProgressed':
      return {
        ...state,
        progress: event.data.tables,
        lease: state.lease && { ...state.lease, expiresAt: event.data.lease_expires_at },
      };
    case 'JobSucceeded':
      return {
        ...state,
        status: 'succeeded',
        files: event.data.files,
        finishedAt: event.data.finished_at,
        progress: state.progress.map((table) => ({ ...table, rows_done: table.rows_total })),
      };
    case 'JobFailed':
      return { ...state, status: 'failed', problem: event.data.problem, finishedAt: event.data.failed_at };
    case 'JobCancelRequested':
      return { ...state, cancelRequested: true };
    case 'JobCancelled':
      return { ...state, status: 'cancelled', finishedAt: event.data.cancelled_at };
    case 'JobResultsExpired':
      return { ...state, resultsExpired: true };
  }
}

export function isFinished(status: JobStatus | null): boolean {
  return status !== null && FINISHED_STATES.includes(status);
}

/** A running job whose runner has not renewed its lease by `at` is orphaned: another runner may take it. */
export function leaseExpired(state: JobState, at: string): boolean {
  return state.lease !== null && Date.parse(state.lease.expiresAt) <= Date.parse(at);
}
