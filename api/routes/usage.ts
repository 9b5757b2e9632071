import type { Mode } from '../../core/events/envelope.js';
import { Problems, problem } from '../../core/problems.js';
import type { UsageRecord, UsageRecordTable } from '../../projections/usage/usage-records.js';
import { usageSummary, type UsagePeriod } from '../../projections/usage/usage-queries.js';
import type { ApiContext } from '../http/context.js';
import { decodeCursor, encodeCursor, invalidCursor } from '../http/pagination.js';
import { LiveKeyRequired, readMode, readModeParameter } from '../http/modes.js';
import { defineRoute, type RouteGroup } from '../http/route.js';
import { listQuery, pageSchema, type ListQuery } from '../http/schemas.js';

const period = {
  from: {
    type: 'string',
    format: 'date-time',
    description: 'Inclusive. Default: the start of the current billing period.',
  },
  to: { type: 'string', format: 'date-time', description: 'Exclusive. Default: none (everything up to now).' },
};

const totals = { operations: { type: 'integer' }, rows: { type: 'integer' }, credits: { type: 'integer' } };
const breakdown = (key: Record<string, unknown>) => ({
  type: 'array',
  items: { type: 'object', properties: { ...key, ...totals } },
});
const modeUsage = {
  type: 'object',
  required: ['operations', 'rows', 'credits', 'refunded', 'by_day', 'by_sector', 'by_table', 'by_key'],
  properties: {
    ...totals,
    refunded: {
      type: 'object',
      properties: { operations: { type: 'integer' }, credits: { type: 'integer' } },
      description: 'Work refunded after its debit (it failed): not in the totals.',
    },
    by_day: breakdown({ date: { type: 'string', format: 'date' } }),
    by_sector: breakdown({ sector: { type: 'string' } }),
    by_table: breakdown({ sector: { type: 'string' }, table: { type: 'string' } }),
    by_key: breakdown({ key_id: { type: ['string', 'null'] } }),
  },
};

const summarySchema = {
  ...modeUsage,
  required: ['from', 'to', 'mode', ...modeUsage.required],
  properties: {
    from: { type: 'string', format: 'date-time' },
    to: { type: ['string', 'null'], format: 'date-time', description: 'null: up to now.' },
    mode: {
      enum: ['live', 'test'],
      description:
        '`live`: credits charged to live keys. ' +
        '`test`: sandbox work of test keys, whose `credits` is what it would have cost; nothing was charged.',
    },
    ...modeUsage.properties,
  },
};

const recordSchema = {
  type: 'object',
  required: [
    'id',
    'reference',
    'operation',
    'mode',
    'key_id',
    'sector',
    'tables',
    'rows',
    'credits',
    'refunded',
    'created_at',
  ],
  properties: {
    id: { type: 'string' },
    reference: {
      type: 'string',
      description:
        'The debit reference of a quick generation (its request id; for a retry under an Idempotency-Key, ' +
        "the first attempt's, with .2, .3, … after a refunded attempt), or the job id.",
    },
    operation: {
      type: 'string',
      description: '`quick_generation` (a debit of POST /v1/generate/quick) or `job` (a settlement).',
      examples: ['quick_generation', 'job'],
    },
    mode: { enum: ['live', 'test'] },
    key_id: { type: ['string', 'null'] },
    sector: { type: 'string' },
    tables: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' }, ...totals } } },
    rows: { type: 'integer' },
    credits: { type: 'integer' },
    refunded: { type: 'boolean' },
    created_at: { type: 'string', format: 'date-time' },
  },
};

const recordView = ({
  id,
  reference,
  operation,
  mode,
  key_id,
  sector,
  tables,
  rows,
  credits,
  refunded,
  recorded_at,
}: UsageRecord) => ({
  id,
  reference,
  operation,
  mode,
  key_id,
  sector,
  tables,
  rows,
  credits,
  refunded,
  created_at: recorded_at,
});

/**
 * The period asked for; by default from the start of the current billing period, with no end (events
 * carry the store's time of recording). Refuses a period that ends before it starts.
 */
async function periodOf(ctx: ApiContext, query: UsagePeriod): Promise<{ from: string; to: string | null }> {
  const { from, to } = instantsOf({
    from: query.from ?? (await ctx.services.billing.subscription(ctx.state.auth.accountId)).current_period_start,
    to: query.to,
  });
  return { from: from!, to: to ?? null };
}

/**
 * A period's bounds in UTC as the store writes its times (so that they compare as text), refused when
 * it ends before it starts: the summary and the records of the same period answer alike.
 */
function instantsOf(period: UsagePeriod): UsagePeriod {
  const from = period.from === undefined ? undefined : new Date(period.from).toISOString();
  const to = period.to === undefined ? undefined : new Date(period.to).toISOString();
  if (from !== undefined && to !== undefined && to < from) {
    const message = `the period ends (${to}) before it starts (${from})`;
    throw problem(Problems.validation, message, { errors: [{ in: 'query', pointer: '/to', message }] });
  }
  return { from, to };
}

/** The usage records table, once it has applied every event written before the request. */
async function usageTable(ctx: ApiContext): Promise<UsageRecordTable> {
  await ctx.services.usageRecords.catchUp();
  return ctx.services.usageRecords.table;
}

/** The cursor is the position of the last record of the previous page (opaque to clients). */
function positionOfCursor(cursor: string | undefined): number | undefined {
  if (cursor === undefined) return undefined;
  const match = /^usg_(\d+)$/.exec(decodeCursor(cursor));
  // Positions are safe integers: a larger one was never given out, and a database's bigint cannot hold every
  // such number.
  const position = match ? Number(match[1]) : NaN;
  if (!Number.isSafeInteger(position)) throw invalidCursor('the cursor does not belong to this list');
  return position;
}

export const usageRoutes: RouteGroup = {
  tag: 'Usage',
  description: 'Credit consumption over a period, and the usage records it is made of.',
  routes: [
    defineRoute<Record<string, never>, UsagePeriod & { mode?: Mode }>({
      method: 'GET',
      path: '/v1/usage',
      operationId: 'getUsage',
      summary: 'Usage over a period',
      description:
        "Totals, then per UTC day, sector, table and key, of one mode: the key's own " +
        '(a live key may ask for `mode=test`). Refunded work counts only under `refunded`.',
      scope: 'usage:read',
      query: { properties: { ...period, mode: readModeParameter } },
      responses: { 200: { description: 'The usage summary.', content: { 'application/json': summarySchema } } },
      problems: [LiveKeyRequired],
      async handle(ctx, { query }) {
        const mode = readMode(ctx, query.mode);
        const range = await periodOf(ctx, query);
        const period = { from: range.from, to: range.to ?? undefined };
        const summary = await usageSummary(await usageTable(ctx), ctx.state.auth.accountId, mode, period);
        ctx.body = { ...range, mode, ...summary };
      },
    }),
    defineRoute<Record<string, never>, ListQuery & UsagePeriod & { mode?: Mode }>({
      method: 'GET',
      path: '/v1/usage/records',
      operationId: 'listUsageRecords',
      summary: 'Usage records',
      description:
        "One record per charged (live) or sandbox (test) operation of one mode, newest first: the key's own mode " +
        '(a live key may ask for `mode=test`); filter by period.',
      scope: 'usage:read',
      query: {
        properties: {
          ...listQuery.properties,
          from: { ...period.from, description: 'Inclusive.' },
          to: { ...period.to, description: 'Exclusive.' },
          mode: readModeParameter,
        },
      },
      responses: {
        200: { description: 'A page of usage records.', content: { 'application/json': pageSchema(recordSchema) } },
      },
      problems: [LiveKeyRequired],
      async handle(ctx, { query }) {
        const { limit, cursor, from, to } = query;
        const mode = readMode(ctx, query.mode);
        const filter = { mode, ...instantsOf({ from, to }), before: positionOfCursor(cursor) };
        // One more than the page: whether there is a next page, without counting.
        const records = await (await usageTable(ctx)).page(ctx.state.auth.accountId, filter, limit + 1);
        const data = records.slice(0, limit);
        const hasMore = records.length > limit;
        ctx.body = {
          data: data.map(recordView),
          has_more: hasMore,
          next_cursor: hasMore ? encodeCursor(data.at(-1)!.id) : null,
        };
      },
    }),
  ],
};
