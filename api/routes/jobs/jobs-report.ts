import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { JobProblems } from '../../../core/jobs/job.js';
import { problem } from '../../../core/problems.js';
import { REPORT_CONTENT_SECURITY_POLICY, reportPage } from '../../../core/reports/html.js';
import { ReportProblems } from '../../../core/reports/problems.js';
import type { DatasetReport } from '../../../core/reports/report.js';
import { reportSchema } from '../../../core/reports/report-schema.js';
import type { ApiContext } from '../../http/context.js';
import { noneMatchHolds } from '../../http/conditional.js';
import { defineRoute } from '../../http/route.js';
import { NotAcceptable } from '../generation.js';
import { visibleJob } from './visible-job.js';

const headers = {
  ETag: {
    description:
      "Strong, one per representation: the JSON's is the SHA-256 of the stored report, as in the job's success " +
      "event; the page's, the SHA-256 of the page's bytes.",
    schema: { type: 'string' },
  },
  'Content-Security-Policy': {
    description: 'For the page: nothing loaded from anywhere, its one style block by its hash, no script.',
    schema: { type: 'string' },
  },
};

/** GET /v1/jobs/{id}/report: the conformance report as JSON, or to `Accept: text/html` as a page. */
export function reportRoute(jobId: Record<string, unknown>) {
  return defineRoute<{ id: string }>({
    method: 'GET',
    path: '/v1/jobs/{id}/report',
    operationId: 'getJobReport',
    summary: 'The conformance report of a job',
    description:
      'Statistics of every column (rows, nulls, distinct, min, max, mean, quantiles, histograms, top values), ' +
      'invalid financial values and orphan references with an example row each, achieved against configured, ' +
      'and a score per table and for the dataset (docs/reports.md). `Accept: text/html` answers a ' +
      'self-contained page of it. Made for every job unless its config says `output.report: false`. 409 before ' +
      'the job has succeeded, 410 once its results were removed.',
    scope: 'jobs:read',
    params: { id: jobId },
    responses: {
      200: {
        description: 'The report.',
        headers,
        content: { 'application/json': reportSchema, 'text/html': { type: 'string' } },
      },
      304: { description: "The client's copy (If-None-Match) is current.", headers },
    },
    problems: [
      JobProblems.notFound,
      JobProblems.notSucceeded,
      JobProblems.resultsExpired,
      ReportProblems.notFound,
      NotAcceptable,
    ],
    async handle(ctx, { params }) {
      const path = await visibleJob(ctx, () => ctx.services.jobs.reportPath(owner(ctx), params.id));
      const bytes = await readReport(path, params.id);
      const html = ctx.accepts('application/json', 'text/html');
      if (html === false)
        throw problem(NotAcceptable, `nothing here matches Accept: ${ctx.get('Accept')}`, {
          supported: ['application/json', 'text/html'],
        });
      // Each representation its own strong ETag (RFC 9110 8.8.3): the page is made to be hashed, and is small.
      const page =
        html === 'text/html'
          ? reportPage(JSON.parse(bytes.toString('utf8')) as DatasetReport, `Conformance report of ${params.id}`)
          : undefined;
      const etag = `"${createHash('sha256')
        .update(page ?? bytes)
        .digest('hex')}"`;
      ctx.set('ETag', etag);
      ctx.set('Vary', 'Accept');
      ctx.set('Cache-Control', 'private, max-age=0, must-revalidate');
      if (noneMatchHolds(ctx.get('If-None-Match'), etag)) {
        ctx.status = 304;
        return;
      }
      if (page !== undefined) {
        ctx.set('Content-Security-Policy', REPORT_CONTENT_SECURITY_POLICY);
        ctx.set('X-Content-Type-Options', 'nosniff');
        ctx.set('Referrer-Policy', 'no-referrer');
        ctx.type = 'text/html; charset=utf-8';
        ctx.body = page;
        return;
      }
      ctx.type = 'application/json';
      ctx.body = bytes;
    },
  });
}

const owner = (ctx: ApiContext) => ({ accountId: ctx.state.auth.accountId, mode: ctx.state.auth.mode });

async function readReport(path: string, jobId: string): Promise<Buffer> {
  try {
    return await readFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    throw problem(ReportProblems.notFound, `job ${jobId} has no conformance report`);
  }
}
