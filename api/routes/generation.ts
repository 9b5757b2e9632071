import { InsufficientCredits } from '../../core/accounts/credit-problems.js';
import { ConfigProblems } from '../../core/configs/problems.js';
import { quickGenerate, type QuickResult } from '../../core/quick/quick-generation.js';
import {
  QUICK_LIMITS,
  QuickLimitExceeded,
  quickRequestSchema,
  type QuickRequest,
} from '../../core/quick/quick-request.js';
import { GenerationProblems } from '../../core/generation/problems.js';
import type { Format } from '../../core/generation/codegen/writers.js';
import { defineProblem, problem } from '../../core/problems.js';
import type { ApiContext } from '../http/context.js';
import { originalAttemptOf } from '../middleware/idempotency.js';
import { reportSchema } from '../../core/reports/report-schema.js';
import { defineRoute, type RouteGroup } from '../http/route.js';

export const NotAcceptable = defineProblem({
  slug: 'not-acceptable',
  title: 'Not Acceptable',
  status: 406,
  description:
    'Quick generation answers application/json (the default), application/x-ndjson, ' +
    'or text/csv for a single table; `supported` lists what this request can have.',
});

const MEDIA_TYPES: Record<Format, string> = {
  json: 'application/json',
  ndjson: 'application/x-ndjson',
  csv: 'text/csv',
};

/** The answer's format from `Accept`, JSON when it does not say; 406 when it names nothing this request can have. */
function negotiate(ctx: ApiContext, tables: number): Format {
  const supported = tables === 1 ? (['json', 'ndjson', 'csv'] as const) : (['json', 'ndjson'] as const);
  const chosen = ctx.accepts(...supported.map((format) => MEDIA_TYPES[format]));
  const format = (Object.keys(MEDIA_TYPES) as Format[]).find((candidate) => MEDIA_TYPES[candidate] === chosen);
  if (format) return format;
  const why =
    tables > 1 && ctx.accepts(MEDIA_TYPES.csv)
      ? 'CSV holds one table; this request has several'
      : `nothing here matches Accept: ${ctx.get('Accept')}`;
  throw problem(NotAcceptable, `${why}; supported: ${supported.map((f) => MEDIA_TYPES[f]).join(', ')}`, {
    supported: supported.map((f) => MEDIA_TYPES[f]),
  });
}

/** The JSON answer, assembled around the engine's own JSON arrays (rows are never parsed back). */
function jsonBody(result: QuickResult, mode: string): Buffer {
  const parts: (string | Uint8Array)[] = [
    `{"sector":${JSON.stringify(result.sector)},"seed":${result.seed},"tables":{`,
  ];
  result.tables.forEach((table, index) => parts.push(`${index ? ',' : ''}${JSON.stringify(table.name)}:`, table.bytes));
  parts.push(`},"rows":${result.rows},"credits_charged":${result.credits_charged},"mode":${JSON.stringify(mode)}`);
  parts.push(result.report ? `,"report":${JSON.stringify(result.report)}}` : '}');
  return Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part) : part)));
}

/** One table: its NDJSON as is. Several: each line `{"table": name, "row": {…}}`, tables in request order. */
function ndjsonBody(result: QuickResult): Buffer {
  if (result.tables.length === 1) return result.tables[0].bytes;
  const lines: string[] = [];
  for (const table of result.tables) {
    const prefix = `{"table":${JSON.stringify(table.name)},"row":`;
    for (const line of table.bytes.toString('utf8').split('\n')) if (line) lines.push(`${prefix}${line}}\n`);
  }
  return Buffer.from(lines.join(''));
}

const rowsSchema = {
  type: 'array',
  items: { type: 'object', description: 'A row; its columns are those of the table schema in the catalog.' },
};

export const generationRoutes: RouteGroup = {
  tag: 'Generation',
  description: 'Synthetic data in the same exchange. Larger datasets: the Jobs group.',
  routes: [
    defineRoute<Record<string, never>, Record<string, never>, QuickRequest>({
      method: 'POST',
      path: '/v1/generate/quick',
      operationId: 'generateQuick',
      summary: 'Generate data synchronously',
      description:
        `Generates the tables and answers them in this exchange: at most ${QUICK_LIMITS.max_rows_per_table} ` +
        `rows per table and ${QUICK_LIMITS.max_rows_per_request} per request ` +
        '(above: 400 `quick-limit-exceeded`, use POST /v1/jobs). `Accept`: ' +
        'application/json (default), application/x-ndjson, or text/csv for one table. ' +
        'A live key is charged the estimate of the request (402 when short); a test key is never charged. ' +
        'Referenced tables that are not requested are sized so that references resolve, ' +
        'but neither returned nor charged: request them to have them.',
      scope: 'generate',
      body: { content: { 'application/json': quickRequestSchema } },
      responses: {
        200: {
          description: 'The generated rows.',
          headers: {
            'Finsynth-Seed': {
              description: 'The seed used: send it back to get the same rows.',
              schema: { type: 'integer' },
            },
            'Finsynth-Credits-Charged': {
              description: 'Credits charged (0 with a test key).',
              schema: { type: 'integer' },
            },
            'Finsynth-Mode': { description: '`live` or `test`.', schema: { enum: ['live', 'test'] } },
          },
          content: {
            'application/json': {
              type: 'object',
              required: ['sector', 'seed', 'tables', 'rows', 'credits_charged', 'mode'],
              properties: {
                sector: { type: 'string' },
                seed: { type: 'integer' },
                tables: { type: 'object', additionalProperties: rowsSchema },
                rows: { type: 'integer' },
                credits_charged: { type: 'integer' },
                mode: { enum: ['live', 'test'] },
                report: { ...reportSchema, description: 'The conformance report, when the request asked for it.' },
              },
            },
            'application/x-ndjson': {
              type: 'string',
              description: 'One row per line; with several tables, `{"table", "row"}` per line.',
            },
            'text/csv': { type: 'string', description: 'RFC 4180 with a header line; one table only.' },
          },
        },
      },
      problems: [
        QuickLimitExceeded,
        ConfigProblems.invalidConfig,
        GenerationProblems.unknownSector,
        NotAcceptable,
        InsufficientCredits,
        GenerationProblems.invalidPlan,
        GenerationProblems.generationFailed,
      ],
      async handle(ctx, { body, source }) {
        const { accountId, mode, keyId } = ctx.state.auth;
        const format = negotiate(ctx, body.tables.length);
        if (body.report && format !== 'json')
          throw problem(NotAcceptable, `the report is answered in JSON; this request accepts ${MEDIA_TYPES[format]}`, {
            supported: [MEDIA_TYPES.json],
          });
        const { configs, pool, credits, refunds } = ctx.services;
        const attempt = { requestId: ctx.state.requestId, originalRequestId: originalAttemptOf(ctx) };
        const deps = { catalog: configs.catalog, pool, credits, refunds };
        const result = await quickGenerate(deps, {
          owner: { accountId, mode },
          keyId,
          ...attempt,
          request: body,
          source,
          format,
        });
        ctx.set('Finsynth-Seed', String(result.seed));
        ctx.set('Finsynth-Credits-Charged', String(result.credits_charged));
        ctx.set('Finsynth-Mode', mode);
        ctx.type = format === 'csv' ? 'text/csv; charset=utf-8; header=present' : MEDIA_TYPES[format];
        // NDJSON and CSV of one table are the generated bytes themselves, never copied.
        ctx.body =
          format === 'json'
            ? jsonBody(result, mode)
            : format === 'ndjson'
              ? ndjsonBody(result)
              : result.tables[0].bytes;
      },
    }),
  ],
};
