import type { Mode } from '../events/envelope.js';
import type { EventDefinition } from '../events/registry.js';
import type { JsonSchema } from '../json-schema.js';
import type { DomainEvent } from '../commands/decider.js';
import type { Plan } from '../generation/plan-types.js';

/** What a job is asked to write, per table; the bytes a client downloads. */
export type OutputFormat = 'csv' | 'ndjson' | 'json' | 'parquet';
/** gzip for a text file; snappy, zstd, gzip or none inside a Parquet file. */
export type Compression = 'none' | 'gzip' | 'snappy' | 'zstd';

export interface TableEstimate {
  name: string;
  rows: number;
  credits: number;
}

export interface JobEstimate {
  credits: number;
  tables: TableEstimate[];
}

/** One finished table: what GET /v1/jobs/{id}/results lists. `file` is relative to the job's result directory. */
export interface ResultFile {
  table: string;
  file: string;
  format: OutputFormat;
  compression: Compression;
  rows: number;
  bytes: number;
  sha256: string;
}

/** The conformance report's file: its name in the job's directory, size and SHA-256. */
export interface ReportFile {
  file: string;
  bytes: number;
  sha256: string;
}

export interface TableProgress {
  name: string;
  rows_done: number;
  rows_total: number;
}

/** A problem-details object without its `type` base and `instance`: the API adds those when it renders. */
export interface StoredProblem {
  slug: string;
  title: string;
  status: number;
  detail: string;
}

export type JobCreated = DomainEvent<
  'JobCreated',
  {
    job_id: string;
    account_id: string;
    mode: Mode;
    key_id: string;
    /** The validated, normalised config the job runs. */
    config: Record<string, unknown>;
    /** The engine's plan of that config: pinned at creation, so that every attempt produces the same bytes. */
    plan: Plan;
    /** `report`: the job makes its conformance report; absent in jobs created before reports were asked for. */
    output: { format: OutputFormat; compression: Compression; report?: boolean };
    estimate: JobEstimate;
    created_at: string;
  }
>;
/** A runner claimed the job (attempt 1) or took it over from a runner whose lease expired (attempt > 1). */
export type JobStarted = DomainEvent<
  'JobStarted',
  { job_id: string; instance_id: string; attempt: number; started_at: string; lease_expires_at: string }
>;
/** Rows done per table; also the lease heartbeat (a runner appends one at most every second). */
export type JobProgressed = DomainEvent<
  'JobProgressed',
  { job_id: string; instance_id: string; tables: TableProgress[]; at: string; lease_expires_at: string }
>;
export type JobSucceeded = DomainEvent<
  'JobSucceeded',
  {
    job_id: string;
    instance_id: string;
    files: ResultFile[];
    credits: number;
    finished_at: string;
    /** The conformance report written beside the files (absent in jobs that succeeded before reports). */
    report?: ReportFile;
  }
>;
export type JobFailed = DomainEvent<'JobFailed', { job_id: string; problem: StoredProblem; failed_at: string }>;
export type JobCancelRequested = DomainEvent<'JobCancelRequested', { job_id: string; requested_at: string }>;
export type JobCancelled = DomainEvent<'JobCancelled', { job_id: string; cancelled_at: string }>;
export type JobResultsExpired = DomainEvent<'JobResultsExpired', { job_id: string; expired_at: string }>;

export type JobEvent =
  | JobCreated
  | JobStarted
  | JobProgressed
  | JobSucceeded
  | JobFailed
  | JobCancelRequested
  | JobCancelled
  | JobResultsExpired;

const id = { type: 'string', minLength: 1 };
const time = { type: 'string', format: 'date-time' };
const count = { type: 'integer', minimum: 0 };

function object(properties: Record<string, JsonSchema>, required = Object.keys(properties)): JsonSchema {
  return { type: 'object', required, properties, additionalProperties: false };
}

/**
 * JobSucceeded's `report` is optional and was added in place the same way: events stored before it validate
 * as they did, and a reader finds it absent in them.
 *
 * Parquet widened these enums in place, without a new event version: every event stored before validates as
 * it did (the registry validates data when it is appended, and reads only upcast by version).
 */
const formats = { enum: ['csv', 'ndjson', 'json', 'parquet'] };
const compressions = { enum: ['none', 'gzip', 'snappy', 'zstd'] };
const tableProgress = object({ name: id, rows_done: count, rows_total: count });
const resultFile = object({
  table: id,
  file: id,
  format: formats,
  compression: compressions,
  rows: count,
  bytes: count,
  sha256: { type: 'string', pattern: '^[0-9a-f]{64}$' },
});
const storedProblem = object({
  slug: id,
  title: id,
  status: { type: 'integer', minimum: 400, maximum: 599 },
  detail: { type: 'string' },
});

function definition(type: JobEvent['type'], schema: JsonSchema): EventDefinition<JobEvent['type']> {
  return { type, version: 1, schema };
}

export const jobEvents: readonly EventDefinition<JobEvent['type']>[] = [
  definition(
    'JobCreated',
    object({
      job_id: id,
      account_id: id,
      mode: { enum: ['live', 'test'] },
      key_id: id,
      config: { type: 'object' },
      plan: { type: 'object' },
      output: object({ format: formats, compression: compressions, report: { type: 'boolean' } }, [
        'format',
        'compression',
      ]),
      estimate: object({
        credits: count,
        tables: { type: 'array', items: object({ name: id, rows: count, credits: count }) },
      }),
      created_at: time,
    }),
  ),
  definition(
    'JobStarted',
    object({
      job_id: id,
      instance_id: id,
      attempt: { type: 'integer', minimum: 1 },
      started_at: time,
      lease_expires_at: time,
    }),
  ),
  definition(
    'JobProgressed',
    object({
      job_id: id,
      instance_id: id,
      tables: { type: 'array', items: tableProgress },
      at: time,
      lease_expires_at: time,
    }),
  ),
  definition(
    'JobSucceeded',
    object(
      {
        job_id: id,
        instance_id: id,
        files: { type: 'array', items: resultFile },
        credits: count,
        finished_at: time,
        report: object({ file: id, bytes: count, sha256: { type: 'string', pattern: '^[0-9a-f]{64}$' } }),
      },
      ['job_id', 'instance_id', 'files', 'credits', 'finished_at'],
    ),
  ),
  definition('JobFailed', object({ job_id: id, problem: storedProblem, failed_at: time })),
  definition('JobCancelRequested', object({ job_id: id, requested_at: time })),
  definition('JobCancelled', object({ job_id: id, cancelled_at: time })),
  definition('JobResultsExpired', object({ job_id: id, expired_at: time })),
];

export const jobEventTypes: readonly JobEvent['type'][] = jobEvents.map((event) => event.type);
