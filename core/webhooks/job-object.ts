import type { Mode } from '../events/envelope.js';
import type { Compression, JobFailed, JobSucceeded, OutputFormat } from '../jobs/events.js';

/** What the scheduler keeps of a job until it ends: enough to describe it to endpoints then. */
export interface PendingJob {
  account_id: string;
  mode: Mode;
  sector: string;
  output: { format: OutputFormat; compression: Compression };
  tables: { name: string; rows: number }[];
  created_at: string;
  started_at: string | null;
}

export type JobEnd =
  JobSucceeded | JobFailed | { type: 'JobCancelled'; data: { job_id: string; cancelled_at: string } };

const STATE_OF = { JobSucceeded: 'succeeded', JobFailed: 'failed', JobCancelled: 'cancelled' } as const;

/**
 * A job's `data.object`: the essential fields of GET /v1/jobs/{id} at the job's end (its state, tables,
 * result files with where to download them, the failure as problem details, the credits charged).
 */
export function jobObject(jobId: string, job: PendingJob, end: JobEnd, errorTypeBase: string): Record<string, unknown> {
  const self = `/v1/jobs/${jobId}`;
  const finishedAt =
    end.type === 'JobSucceeded'
      ? end.data.finished_at
      : end.type === 'JobFailed'
        ? end.data.failed_at
        : end.data.cancelled_at;
  return {
    id: jobId,
    object: 'job',
    state: STATE_OF[end.type],
    mode: job.mode,
    sector: job.sector,
    output: job.output,
    tables: job.tables,
    created_at: job.created_at,
    started_at: job.started_at,
    finished_at: finishedAt,
    results:
      end.type === 'JobSucceeded'
        ? end.data.files.map((file) => ({
            table: file.table,
            format: file.format,
            compression: file.compression,
            rows: file.rows,
            bytes: file.bytes,
            sha256: file.sha256,
            download_url: `${self}/results/${encodeURIComponent(file.table)}`,
          }))
        : [],
    failure:
      end.type === 'JobFailed'
        ? {
            type: `${errorTypeBase}/${end.data.problem.slug}`,
            title: end.data.problem.title,
            status: end.data.problem.status,
            detail: end.data.problem.detail,
            instance: self,
          }
        : null,
    credits_charged: end.type === 'JobSucceeded' ? end.data.credits : null,
    links: { self, results: `${self}/results` },
  };
}
