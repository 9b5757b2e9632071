import { JOB_STATES, JobProblems, type JobStatus } from '../../../core/jobs/job.js';
import type { ConfigInput } from '../../../core/configs/config-input.js';
import { Problems } from '../../../core/problems.js';
import { COMPRESSIONS, OUTPUT_FORMATS } from '../../../core/configs/config-schema.js';
import { InsufficientCredits } from '../../../core/accounts/credit-problems.js';
import { GenerationProblems } from '../../../core/generation/problems.js';
import type { JobView } from '../../../projections/jobs/jobs.js';
import { jobMatches } from '../../../projections/jobs/jobs-queries.js';
import type { ApiContext } from '../../http/context.js';
import { visibleJob } from './visible-job.js';
import { paginate } from '../../http/pagination.js';
import { defineRoute, type RouteGroup } from '../../http/route.js';
import { listQuery, pageSchema, problemSchema, type ListQuery } from '../../http/schemas.js';
import { RangeNotSatisfiable, sendResultFile } from './jobs-download.js';
import { reportRoute } from './jobs-report.js';
import { configInput, MAX_CONFIG_BODY_BYTES, yamlBody } from '../configs/config-input-schema.js';
import { YAML_TYPES } from '../configs/config-schemas.js';
import { configProblems } from '../configs/document-kinds.js';

const jobId = {
  type: 'string',
  minLength: 1,
  maxLength: 64,
  pattern: '^job_[0-9a-f]+$',
  examples: ['job_5f0c2a9e7b1d4c3a8e6f0b21'],
};
const tableName = { type: 'string', minLength: 1, maxLength: 63, examples: ['transactions'] };
const time = { type: 'string', format: 'date-time' };
const nullableTime = { type: ['string', 'null'], format: 'date-time' };
const count = { type: 'integer', minimum: 0 };

const tableProgressSchema = {
  type: 'object',
  required: ['name', 'rows_done', 'rows_total'],
  properties: { name: tableName, rows_done: count, rows_total: count },
};

const jobSchema = {
  type: 'object',
  required: [
    'id',
    'object',
    'state',
    'mode',
    'sector',
    'output',
    'estimate',
    'progress',
    'created_at',
    'started_at',
    'finished_at',
    'cancel_requested',
    'failure',
    'credits_charged',
    'results_expire_at',
    'report',
    'links',
  ],
  properties: {
    id: { type: 'string', examples: ['job_5f0c…'] },
    object: { const: 'job' },
    state: {
      enum: [...JOB_STATES],
      description: 'queued → running → succeeded | failed | cancelled; queued → cancelled.',
    },
    mode: { enum: ['live', 'test'] },
    sector: { type: 'string' },
    output: {
      type: 'object',
      properties: {
        format: { enum: [...OUTPUT_FORMATS] },
        compression: { enum: [...COMPRESSIONS] },
        report: { type: 'boolean', description: 'The job makes its conformance report (GET /v1/jobs/{id}/report).' },
      },
    },
    estimate: {
      type: 'object',
      description: 'The credits reserved at creation (live keys); settled at the end for what was produced.',
      properties: {
        credits: count,
        tables: {
          type: 'array',
          items: { type: 'object', properties: { name: tableName, rows: count, credits: count } },
        },
      },
    },
    progress: {
      type: 'object',
      properties: { rows_done: count, rows_total: count, tables: { type: 'array', items: tableProgressSchema } },
    },
    created_at: time,
    started_at: nullableTime,
    finished_at: nullableTime,
    cancel_requested: { type: 'boolean' },
    failure: { oneOf: [{ type: 'null' }, problemSchema], description: 'Why the job failed, as problem details.' },
    credits_charged: { type: ['integer', 'null'], description: 'Credits debited at success (0 for test keys).' },
    results_expire_at: { ...nullableTime, description: 'When the result files are removed.' },
    report: {
      oneOf: [
        { type: 'null' },
        {
          type: 'object',
          required: ['bytes', 'sha256', 'url'],
          properties: {
            bytes: count,
            sha256: {
              type: 'string',
              pattern: '^[0-9a-f]{64}$',
              description: "Of the report's JSON as served, as recorded in the job's success event; also its ETag.",
            },
            url: { type: 'string' },
          },
        },
      ],
      description: 'The conformance report, once the job succeeded; null before, and for a job that makes none.',
    },
    links: {
      type: 'object',
      properties: { self: { type: 'string' }, cancel: { type: 'string' }, results: { type: 'string' } },
    },
  },
};

const resultFileSchema = {
  type: 'object',
  required: ['table', 'format', 'compression', 'rows', 'bytes', 'sha256', 'download_url'],
  properties: {
    table: tableName,
    format: { enum: [...OUTPUT_FORMATS] },
    compression: {
      enum: [...COMPRESSIONS],
      description: 'gzip of a text file compresses the file; a Parquet file compresses its pages inside it.',
    },
    rows: count,
    bytes: { ...count, description: 'Size of the file as downloaded (compressed when gzip).' },
    sha256: { type: 'string', pattern: '^[0-9a-f]{64}$', description: 'Of the bytes as downloaded; also the ETag.' },
    download_url: { type: 'string' },
  },
};

const binary = { type: 'string', format: 'binary' };
const downloadContent = {
  'text/csv': binary,
  'application/x-ndjson': binary,
  'application/json': binary,
  'application/gzip': binary,
  'application/vnd.apache.parquet': binary,
};

const header = (description: string) => ({ description, schema: { type: 'string' } });

/** What a download reads of the request: a range to resume from, and the client's copy. */
const downloadRequestHeaders = {
  Range: header(
    'One byte range: `bytes=<first>-<last>`, `bytes=<first>-` or `bytes=-<suffix length>`; answered 206, ' +
      'or 416 when it starts past the end. Several ranges, or another unit, are answered with the whole file.',
  ),
  'If-Range': header(
    'An ETag: the Range is honoured only if the file still has it, otherwise the whole file is sent (200).',
  ),
  'If-None-Match': header('ETags (weakly compared) or `*`: 304 when the file has one of them.'),
};

/** The headers of every answer about the file (200, 206, 304). */
const fileHeaders = {
  ETag: header('Strong: the SHA-256 of the file as downloaded, in quotes (`"<sha256>"`).'),
  'Accept-Ranges': header('`bytes`: a download can resume with `Range`.'),
  'Content-Disposition': header('`attachment; filename="<table>.<format>[.gz]"`.'),
  'Cache-Control': header('`private, max-age=0, must-revalidate`: a cached copy is revalidated with `If-None-Match`.'),
};
const contentLength = (description: string) => ({ description, schema: { type: 'integer', minimum: 0 } });

const owner = (ctx: ApiContext) => ({ accountId: ctx.state.auth.accountId, mode: ctx.state.auth.mode });
const path = (job: JobView) => `/v1/jobs/${job.id}`;

/** The public view of a job: progress summed and per table, its failure as full problem details, its links. */
function jobView(ctx: ApiContext, job: JobView) {
  const { errorTypeBase } = ctx.services.config;
  const retentionMs = ctx.services.config.resultsRetentionMs;
  const sum = (key: 'rows_done' | 'rows_total') => job.progress.reduce((total, table) => total + table[key], 0);
  return {
    id: job.id,
    object: 'job',
    state: job.state,
    mode: job.mode,
    sector: job.sector,
    output: job.output,
    estimate: job.estimate,
    progress: { rows_done: sum('rows_done'), rows_total: sum('rows_total'), tables: job.progress },
    created_at: job.created_at,
    started_at: job.started_at,
    finished_at: job.finished_at,
    cancel_requested: job.cancel_requested,
    failure: job.failure && {
      type: `${errorTypeBase}/${job.failure.slug}`,
      title: job.failure.title,
      status: job.failure.status,
      detail: job.failure.detail,
      instance: path(job),
    },
    credits_charged: job.credits_charged,
    results_expire_at:
      job.state === 'succeeded'
        ? (job.results_expired_at ?? new Date(Date.parse(job.finished_at!) + retentionMs).toISOString())
        : null,
    report: job.report && { bytes: job.report.bytes, sha256: job.report.sha256, url: `${path(job)}/report` },
    links: { self: path(job), cancel: `${path(job)}/cancel`, results: `${path(job)}/results` },
  };
}

function metadataOf(ctx: ApiContext) {
  return { request_id: ctx.state.requestId, key_id: ctx.state.auth.keyId, mode: ctx.state.auth.mode };
}

interface JobListQuery extends ListQuery {
  state?: JobStatus;
  created_after?: string;
  created_before?: string;
}

export const jobsRoutes: RouteGroup = {
  tag: 'Jobs',
  description: 'Asynchronous generation: a job runs a config on the worker pool and leaves one result file per table.',
  routes: [
    defineRoute<Record<string, never>, Record<string, never>, ConfigInput | string>({
      method: 'POST',
      path: '/v1/jobs',
      operationId: 'createJob',
      summary: 'Create a job',
      description:
        'Queues a job from a config (`config`, `config_yaml`, or `config_id` with ordered `overlays`; or the ' +
        'YAML config itself as the body, `Content-Type: application/yaml`). ' +
        'Live keys reserve the estimated credits now (402 when short) and are charged at the end for ' +
        "what was produced. A job over the tier's concurrent-job limit is refused with 429, never queued.",
      scope: 'jobs:write',
      body: {
        content: { 'application/json': configInput, ...Object.fromEntries(YAML_TYPES.map((type) => [type, yamlBody])) },
        required: true,
        maxBytes: MAX_CONFIG_BODY_BYTES,
      },
      responses: {
        202: {
          description: 'The queued job, its estimate and links; `Location` is its URL.',
          content: { 'application/json': jobSchema },
          headers: { Location: { description: 'The job.', schema: { type: 'string' } } },
        },
      },
      problems: [
        ...configProblems,
        GenerationProblems.invalidPlan,
        InsufficientCredits,
        JobProblems.tooManyJobs,
        Problems.notFound,
      ],
      async handle(ctx, { body, source }) {
        const { accountId, mode, keyId } = ctx.state.auth;
        const job = await ctx.services.jobs.create({
          accountId,
          mode,
          keyId,
          input: typeof body === 'string' ? { config_yaml: body } : body,
          inputSource: source,
          metadata: metadataOf(ctx),
        });
        ctx.status = 202;
        ctx.set('Location', path(job));
        ctx.body = jobView(ctx, job);
      },
    }),
    defineRoute<Record<string, never>, JobListQuery>({
      method: 'GET',
      path: '/v1/jobs',
      operationId: 'listJobs',
      summary: 'List jobs',
      description:
        'Jobs of the mode of the key asking, newest first; filter by `state` and ' +
        'by creation time (`created_after` inclusive, `created_before` exclusive).',
      scope: 'jobs:read',
      query: {
        properties: {
          ...listQuery.properties,
          state: { enum: [...JOB_STATES] },
          created_after: time,
          created_before: time,
        },
      },
      responses: { 200: { description: 'A page of jobs.', content: { 'application/json': pageSchema(jobSchema) } } },
      handle(ctx, { query }) {
        const shown = jobMatches({
          state: query.state,
          createdFrom: query.created_after && new Date(query.created_after).toISOString(),
          createdTo: query.created_before && new Date(query.created_before).toISOString(),
        });
        const page = paginate(ctx.services.jobs.list(owner(ctx)), (job) => job.id, query, shown);
        ctx.body = { ...page, data: page.data.map((job) => jobView(ctx, job)) };
      },
    }),
    defineRoute<{ id: string }>({
      method: 'GET',
      path: '/v1/jobs/{id}',
      operationId: 'getJob',
      summary: 'Get a job',
      description: 'State, progress per table, times, and for a failed job the problem that says why.',
      scope: 'jobs:read',
      params: { id: jobId },
      responses: { 200: { description: 'The job.', content: { 'application/json': jobSchema } } },
      problems: [JobProblems.notFound],
      async handle(ctx, { params }) {
        ctx.body = jobView(ctx, await visibleJob(ctx, () => ctx.services.jobs.get(owner(ctx), params.id)));
      },
    }),
    defineRoute<{ id: string }>({
      method: 'POST',
      path: '/v1/jobs/{id}/cancel',
      operationId: 'cancelJob',
      summary: 'Cancel a job',
      description:
        'A queued job is cancelled at once; a running job stops within a second, its partial files removed. ' +
        'Unused credits are released. 200 with the cancelled job, ' +
        'or 202 while its runner has not yet confirmed (`cancel_requested`). Cancelling a finished job is a 409.',
      scope: 'jobs:write',
      params: { id: jobId },
      responses: {
        200: { description: 'The cancelled job.', content: { 'application/json': jobSchema } },
        202: { description: 'The job, still stopping.', content: { 'application/json': jobSchema } },
      },
      problems: [JobProblems.notFound, JobProblems.finished],
      async handle(ctx, { params }) {
        const job = await visibleJob(ctx, () => ctx.services.jobs.cancel(owner(ctx), params.id, metadataOf(ctx)));
        ctx.status = job.state === 'cancelled' ? 200 : 202;
        ctx.body = jobView(ctx, job);
      },
    }),
    defineRoute<{ id: string }>({
      method: 'GET',
      path: '/v1/jobs/{id}/results',
      operationId: 'listJobResults',
      summary: 'List the result files of a job',
      description:
        'One file per table of a succeeded job, with its rows, size and SHA-256. ' +
        '409 before the job has succeeded, 410 once the files were removed after the retention time.',
      scope: 'jobs:read',
      params: { id: jobId },
      responses: { 200: { description: 'The files.', content: { 'application/json': pageSchema(resultFileSchema) } } },
      problems: [JobProblems.notFound, JobProblems.notSucceeded, JobProblems.resultsExpired],
      async handle(ctx, { params }) {
        const job = await visibleJob(ctx, () => ctx.services.jobs.results(owner(ctx), params.id));
        const data = job.files.map(({ file: _file, ...file }) => ({
          ...file,
          download_url: `${path(job)}/results/${encodeURIComponent(file.table)}`,
        }));
        ctx.body = { data, has_more: false, next_cursor: null };
      },
    }),
    defineRoute<{ id: string; table: string }>({
      method: 'GET',
      path: '/v1/jobs/{id}/results/{table}',
      operationId: 'downloadJobResult',
      summary: 'Download a table',
      description:
        "The table's file, streamed: CSV, NDJSON or JSON as the config asked, " +
        'or the gzip file of it (`application/gzip`) when it asked for gzip; a Parquet file ' +
        '(`application/vnd.apache.parquet`) whatever compresses its pages. `Content-Length`, ' +
        'a strong `ETag` (the SHA-256), and single byte ranges (`Range`, `If-Range`) so a download can resume.',
      scope: 'jobs:read',
      params: { id: jobId, table: tableName },
      requestHeaders: downloadRequestHeaders,
      responses: {
        200: {
          description: 'The whole file.',
          content: downloadContent,
          headers: { ...fileHeaders, 'Content-Length': contentLength('The size of the file.') },
        },
        206: {
          description: 'The requested range; `Content-Range` says which.',
          content: downloadContent,
          headers: {
            ...fileHeaders,
            'Content-Length': contentLength('The size of the range.'),
            'Content-Range': header('`bytes <first>-<last>/<size of the file>`.'),
          },
        },
        304: { description: "The client's copy (If-None-Match) is current.", headers: fileHeaders },
      },
      problems: [
        JobProblems.notFound,
        JobProblems.resultTableNotFound,
        JobProblems.notSucceeded,
        JobProblems.resultsExpired,
        RangeNotSatisfiable,
      ],
      async handle(ctx, { params }) {
        const file = await visibleJob(ctx, () => ctx.services.jobs.resultFile(owner(ctx), params.id, params.table));
        await sendResultFile(ctx, file);
      },
    }),
    reportRoute(jobId),
  ],
};
