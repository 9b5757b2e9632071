import Router from '@koa/router';
import type { ApiContext, ApiContextExtensions, ApiState } from './http/context.js';
import { authenticate, requireScope } from './middleware/authenticate.js';
import { rateLimit } from './middleware/rate-limit.js';
import { idempotent, negotiatesFormat } from './middleware/idempotency.js';
import { readBody } from './http/body.js';
import { RequestValidator } from './http/validation.js';
import { isIdempotent, type RouteDefinition, type RouteGroup } from './http/route.js';

type AnyRoute = RouteDefinition<unknown, unknown, unknown>;

/** `/v1/keys/{id}` → `/v1/keys/:id`. */
export const koaPath = (path: string): string => path.replace(/\{([^}]+)\}/g, ':$1');

/**
 * Registers every route of every group with the one pipeline all operations share:
 * authenticate → rate limit → scope → read body → validate path, query, body → (POST: idempotency) → handle.
 * Authentication comes first, so that nothing about a request is examined for an unknown caller, and
 * the rate limit before any body is read.
 */
export function buildRouter(groups: readonly RouteGroup[]): Router<ApiState, ApiContextExtensions> {
  const router = new Router<ApiState, ApiContextExtensions>();
  const validator = new RequestValidator();
  const operations = new Set<string>();
  for (const group of groups) {
    for (const route of group.routes as AnyRoute[]) {
      const operation = `${route.method} ${route.path}`;
      if (operations.has(operation)) throw new Error(`${operation} is defined twice`);
      operations.add(operation);
      const validateParams = validator.compile('path', {
        type: 'object',
        properties: route.params ?? {},
        required: Object.keys(route.params ?? {}),
      });
      const validateQuery = validator.compile('query', {
        type: 'object',
        properties: route.query?.properties ?? {},
        required: route.query?.required ?? [],
        additionalProperties: false,
      });
      const bodyValidators = Object.fromEntries(
        Object.entries(route.body?.content ?? {}).map(([mediaType, schema]) => [
          mediaType,
          validator.compile('body', schema),
        ]),
      );
      const idempotency = { keepBody: !route.secretResponse, negotiated: negotiatesFormat(route) };
      router.register(koaPath(route.path), [route.method], async (ctx: ApiContext) => {
        ctx.state.route = route.path;
        if (route.scope !== null) {
          await authenticate(ctx);
          await rateLimit(ctx);
          requireScope(ctx, route.scope);
        }
        const params = { ...(ctx as ApiContext & { params: Record<string, string> }).params };
        validateParams(params);
        const query = { ...ctx.query };
        validateQuery(query);
        const { mediaType, value: body, source } = await readBody(ctx, route);
        if (mediaType !== undefined) bodyValidators[mediaType]!(body, source);
        const work = async () => route.handle(ctx, { params, query, body, mediaType, source });
        if (isIdempotent(route)) await idempotent(ctx, body, work, idempotency);
        else await work();
      });
    }
  }
  return router;
}
