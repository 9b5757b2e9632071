import type { Mode } from '../events/envelope.js';
import type {
  Compression,
  JobEstimate,
  OutputFormat,
  ReportFile,
  ResultFile,
  StoredProblem,
  TableProgress,
} from './events.js';
import type { JobStatus } from './state.js';

/** One job as the read endpoints and the runners' scheduler see it. */
export interface JobView {
  id: string;
  account_id: string;
  mode: Mode;
  key_id: string;
  state: JobStatus;
  sector: string;
  output: { format: OutputFormat; compression: Compression };
  estimate: JobEstimate;
  progress: TableProgress[];
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  attempt: number;
  instance_id: string | null;
  lease_expires_at: string | null;
  cancel_requested: boolean;
  failure: StoredProblem | null;
  files: ResultFile[];
  /** The conformance report its success recorded; null before success and for a job that made none. */
  report: ReportFile | null;
  credits_charged: number | null;
  results_expired_at: string | null;
}

/** A job's credit reservation that is neither settled nor released yet. */
export interface HeldReservation {
  account_id: string;
}

/** A held reservation that nothing will close in the normal course (see reconcile-reservations.ts). */
export interface UnclosedReservation extends HeldReservation {
  reference: string;
  /** The job, finished; undefined when no job was created under the reference (yet). */
  job: JobView | undefined;
}

/**
 * What the jobs concept reads of its read model (projections/jobs), as it is now. The composition root
 * wires it to the projection, so that deciding and running jobs never imports the projections.
 */
export interface JobsReadModel {
  job(jobId: string): JobView | undefined;
  /** The owner's jobs, newest first. */
  ownerJobs(accountId: string, mode: Mode): JobView[];
  /** Queued jobs, and running jobs whose lease expired at `now`, oldest first. */
  claimable(now: Date): JobView[];
  /** Succeeded jobs whose results were kept for `retentionMs` and are still on disk. */
  withExpiredResults(now: Date, retentionMs: number): JobView[];
  unclosedReservations(): UnclosedReservation[];
  /** Whether the job's credit reservation is still held. */
  holdsReservation(jobId: string): boolean;
}

/** Waits until the read models have applied the event at a global position (read-your-writes). */
export interface ReadModelProgress {
  waitFor(position: number): Promise<void>;
  /** Waits until they have applied everything the store holds now, other instances' writes included. */
  waitForHead(): Promise<void>;
}
