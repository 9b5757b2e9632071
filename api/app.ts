import Koa from 'koa';
import { pino, type Logger } from 'pino';
import { Histogram } from 'prom-client';
import { problem } from '../core/problems.js';
import type { Services } from '../core/services/services.js';
import type { ApiContext, ApiContextExtensions, ApiState } from './http/context.js';
import { requestId } from './middleware/request-id.js';
import { closeWhenDraining } from './middleware/close-when-draining.js';
import { accessLog } from './middleware/access-log.js';
import { problemDetails } from './middleware/problem-details.js';
import { httpConformance } from './middleware/http-conformance.js';
import { buildRouter } from './router.js';
import { openApiDocument } from './openapi.js';
import { HttpProblems } from './http/problems.js';
import type { RouteGroup } from './http/route.js';
import { serviceRoutes } from './routes/service.js';
import { keysRoutes } from './routes/keys.js';
import { usageRoutes } from './routes/usage.js';
import { billingRoutes } from './routes/billing.js';
import { auditRoutes } from './routes/audit.js';
import { configsRoutes } from './routes/configs/configs.js';
import { catalogRoutes } from './routes/catalog.js';
import { generationRoutes } from './routes/generation.js';
import { jobsRoutes } from './routes/jobs/jobs.js';
import { webhooksRoutes } from './routes/webhooks.js';
import { docsRoutes } from './routes/docs.js';
import { consoleRoutes } from './routes/console.js';

/** Every group of operations the service serves: a group listed here is both routed and published in OpenAPI. */
export const routeGroups: RouteGroup[] = [
  serviceRoutes,
  keysRoutes,
  usageRoutes,
  billingRoutes,
  auditRoutes,
  configsRoutes,
  catalogRoutes,
  generationRoutes,
  jobsRoutes,
  docsRoutes,
  webhooksRoutes,
  consoleRoutes,
];

export interface AppOptions {
  logger?: Logger;
  groups?: readonly RouteGroup[];
}

export type App = Koa<ApiState, ApiContextExtensions>;

/**
 * The Koa app: request id, access log and metrics, the problem-details boundary, then the routes.
 * Whatever matches no route is a 404 or, when the path exists with other methods, a 405 with `Allow`.
 */
export function createApp(services: Services, options: AppOptions = {}): App {
  const logger = options.logger ?? pino({ level: services.config.logLevel });
  const groups = options.groups ?? routeGroups;
  const router = buildRouter(groups);
  const durations = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request durations by method, route template and status.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [services.metrics],
  });

  const app: App = new Koa<ApiState, ApiContextExtensions>({ proxy: false });
  app.context.services = services;
  app.context.logger = logger;
  app.context.lifecycle = { draining: false };
  app.context.openapi = JSON.stringify(openApiDocument(groups, services.config));
  // Koa's own error printing is replaced by the problem-details boundary and the access log.
  app.silent = true;

  app.use(requestId);
  app.use(closeWhenDraining);
  app.use(accessLog(logger, durations));
  app.use(problemDetails(logger));
  app.use(httpConformance);
  app.use(router.routes());
  app.use(function unmatched(ctx: ApiContext) {
    const allowed = new Set(router.match(ctx.path, ctx.method).path.flatMap((layer) => layer.methods));
    if (allowed.size > 0) {
      throw problem(
        HttpProblems.methodNotAllowed,
        `${ctx.path} does not take ${ctx.method}; it takes ${[...allowed].join(', ')}`,
        {},
        { Allow: [...allowed].join(', ') },
      );
    }
    throw problem(HttpProblems.routeNotFound, `no operation has the path ${ctx.path}`);
  });
  return app;
}
