import type { Logger } from 'pino';
import type { Histogram } from 'prom-client';
import type { ApiContext } from '../http/context.js';

/**
 * One structured log line and one histogram observation per request, labelled by route template
 * (never the raw path: ids would explode the metric's cardinality).
 */
export function accessLog(logger: Logger, durations: Histogram<'method' | 'route' | 'status'>) {
  return async function accessLogMiddleware(ctx: ApiContext, next: () => Promise<void>): Promise<void> {
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const route = ctx.state.route ?? 'unmatched';
      durations.observe({ method: ctx.method, route, status: String(ctx.status) }, seconds);
      logger.info(
        {
          request_id: ctx.state.requestId,
          method: ctx.method,
          route,
          path: ctx.path,
          status: ctx.status,
          duration_ms: Math.round(seconds * 1e5) / 100,
          account_id: ctx.state.auth?.accountId,
          mode: ctx.state.auth?.mode,
        },
        'request',
      );
    }
  };
}
