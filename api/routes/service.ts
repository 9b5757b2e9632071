import { HttpProblems } from '../http/problems.js';
import { problem } from '../../core/problems.js';
import { isStoreUnavailable } from '../../core/store/store-unavailable.js';
import { publicRefusal } from '../../core/packs/public-refusal.js';
import { defineRoute, type RouteGroup } from '../http/route.js';

/** /readyz answers within about this long, whatever the store does: a probe must not hang on a frozen database. */
export const READY_STORE_TIMEOUT_MS = 2_000;

/** Whether the store answers a read within `ms`: false if it fails or is still silent then. */
async function storeAnswers(
  read: () => Promise<unknown>,
  ms: number,
): Promise<{ answers: true } | { answers: false; reason: string }> {
  let timer: NodeJS.Timeout | undefined;
  const silent = new Promise<{ answers: false; reason: string }>((resolve) => {
    timer = setTimeout(() => resolve({ answers: false, reason: `the event store did not answer within ${ms} ms` }), ms);
  });
  const answered = read().then(
    () => ({ answers: true as const }),
    (error: unknown) => ({
      answers: false as const,
      reason: isStoreUnavailable(error) ? 'the event store cannot be reached' : 'the event store failed a read',
    }),
  );
  try {
    return await Promise.race([answered, silent]);
  } finally {
    clearTimeout(timer);
  }
}

const statusSchema = {
  type: 'object',
  required: ['status'],
  properties: {
    status: { enum: ['ok', 'ready'] },
    refused_packs: {
      type: 'array',
      description:
        'Sector packs the instance refused at start (the others are served): where each came from, its name, the ' +
        'file and line at fault when known, and why; paths are shown within the pack (the log has them whole).',
      items: {
        type: 'object',
        required: ['source', 'name', 'file', 'line', 'reasons'],
        properties: {
          source: { type: 'string' },
          name: { type: ['string', 'null'] },
          file: { type: ['string', 'null'] },
          line: { type: ['integer', 'null'] },
          reasons: { type: 'array', items: { type: 'string' } },
        },
      },
    },
    projections: {
      type: 'array',
      items: {
        type: 'object',
        required: ['name', 'checkpoint', 'lag', 'error'],
        properties: {
          name: { type: 'string' },
          version: { type: 'integer' },
          checkpoint: { type: 'integer' },
          lag: { type: 'integer' },
          error: { type: ['object', 'null'] },
        },
      },
    },
  },
};

/** What operators and load balancers call: no key needed. */
export const serviceRoutes: RouteGroup = {
  tag: 'Service',
  description: 'Health, readiness, metrics and the OpenAPI document.',
  routes: [
    defineRoute({
      method: 'GET',
      path: '/healthz',
      operationId: 'health',
      summary: 'Liveness',
      description: 'The process answers; nothing else is checked.',
      scope: null,
      responses: { 200: { description: 'Alive.', content: { 'application/json': statusSchema } } },
      handle(ctx) {
        ctx.body = { status: 'ok' };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/readyz',
      operationId: 'readiness',
      summary: 'Readiness',
      description:
        `Ready when the store answers a read within ${READY_STORE_TIMEOUT_MS / 1000} s, ` +
        `every projection runs, and the instance is not shutting down. ` +
        'While the store is unreachable or frozen it answers 503 `not-ready`, ' +
        'and 200 again within seconds of the store coming back.',
      scope: null,
      responses: { 200: { description: 'Ready to serve.', content: { 'application/json': statusSchema } } },
      problems: [HttpProblems.notReady],
      async handle(ctx) {
        if (ctx.lifecycle.draining)
          throw problem(HttpProblems.notReady, 'the instance is shutting down', {}, { 'Retry-After': '1' });
        const store = await storeAnswers(() => ctx.services.store.headPosition(), READY_STORE_TIMEOUT_MS);
        if (!store.answers) throw problem(HttpProblems.notReady, store.reason, {}, { 'Retry-After': '1' });
        const projections = ctx.services.projections.status();
        const failed = projections.filter((projection) => projection.error !== null);
        if (failed.length > 0) {
          throw problem(
            HttpProblems.notReady,
            `projections stopped: ${failed.map((projection) => projection.name).join(', ')}`,
            { projections },
            { 'Retry-After': '1' },
          );
        }
        const refused_packs = ctx.services.packs.refused.map(publicRefusal);
        ctx.body = { status: 'ready', projections, refused_packs };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/metrics',
      operationId: 'metrics',
      summary: 'Prometheus metrics',
      scope: null,
      responses: {
        200: { description: 'Metrics in the Prometheus text format.', content: { 'text/plain': { type: 'string' } } },
      },
      async handle(ctx) {
        ctx.type = ctx.services.metrics.contentType;
        ctx.body = await ctx.services.metrics.metrics();
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/openapi.json',
      operationId: 'openApiDocument',
      summary: 'This OpenAPI document',
      description: 'Public, like the documentation it is: it needs no key.',
      scope: null,
      responses: {
        200: {
          description: 'The OpenAPI 3.1 document.',
          content: {
            'application/json': {
              type: 'object',
              required: ['openapi', 'paths'],
              properties: { openapi: { type: 'string' }, paths: { type: 'object' } },
            },
          },
        },
      },
      handle(ctx) {
        ctx.type = 'application/json';
        ctx.body = ctx.openapi;
      },
    }),
  ],
};
