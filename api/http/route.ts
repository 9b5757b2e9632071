import type { JsonSchema } from '../../core/json-schema.js';
import type { ProblemType } from '../../core/problems.js';
import type { Scope } from '../../core/auth/scopes.js';
import type { SourceMap } from '../../core/configs/source-map.js';
import type { ApiContext } from './context.js';

export type Tag =
  'Generation' | 'Jobs' | 'Catalog' | 'Configuration' | 'Usage' | 'Billing' | 'Keys' | 'Audit' | 'Service' | 'Webhooks';
export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface ResponseDefinition {
  description: string;
  /** Media type → JSON Schema of the body; omit for an empty response. */
  content?: Record<string, JsonSchema>;
  headers?: Record<string, { description: string; schema: JsonSchema }>;
}

export interface RouteInput<Params, Query, Body> {
  params: Params;
  query: Query;
  body: Body;
  /** The request body's media type (e.g. `application/json`), when it has one. */
  mediaType: string | undefined;
  /**
   * For a JSON body: where each of its parts stands in the text. Hand it (or `within(source, '/member')`)
   * to whatever checks the body further, so that its errors say their line and column too.
   */
  source: SourceMap | undefined;
}

/**
 * One operation, defined once: the router registers it, ajv validates its params, query and body with
 * these very schemas, and the OpenAPI document publishes them. There is no second description to drift.
 */
export interface RouteDefinition<Params = Record<string, string>, Query = Record<string, unknown>, Body = unknown> {
  method: Method;
  /** The full path in OpenAPI template form: `/v1/keys/{id}`. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  /** The scope a key needs; null for an operation that needs no key. */
  scope: Scope | null;
  /** Path parameters: name → schema (all required). */
  params?: Record<string, JsonSchema>;
  /** Query parameters; any other is refused. */
  query?: { properties: Record<string, JsonSchema>; required?: string[] };
  /** Request headers read beyond those every operation reads (Authorization, Idempotency-Key); all optional. */
  requestHeaders?: Record<string, { description: string; schema: JsonSchema }>;
  /**
   * Media type → schema. JSON media types (`application/json`, `*+json`) are parsed and validated; any
   * other arrives as its UTF-8 text, validated as a string.
   */
  body?: { content: Record<string, JsonSchema>; required?: boolean; maxBytes?: number; description?: string };
  responses: Record<number, ResponseDefinition>;
  /**
   * The response carries a secret shown once (a new key): with an Idempotency-Key, the response is not
   * kept (that would store the secret), and a repeat is refused with 409 rather than run again.
   */
  secretResponse?: boolean;
  /** The problems this operation raises beyond those every operation can (auth, validation, limits, 500). */
  problems?: ProblemType[];
  handle(ctx: ApiContext, input: RouteInput<Params, Query, Body>): Promise<void> | void;
}

/** A group of operations: one file under api/routes, one OpenAPI tag. */
export interface RouteGroup {
  tag: Tag;
  description: string;
  // Each route types its own input; `handle` is a method, whose parameter TypeScript compares both ways, so routes of
  // every shape fit here.
  routes: RouteDefinition<unknown, unknown, unknown>[];
}

/** Typed identity: lets a route state the shapes its schemas guarantee to its handler. */
export function defineRoute<Params = Record<string, string>, Query = Record<string, unknown>, Body = unknown>(
  route: RouteDefinition<Params, Query, Body>,
): RouteDefinition<Params, Query, Body> {
  return route;
}

/** Every authenticated POST takes an Idempotency-Key. */
export const isIdempotent = (route: Pick<RouteDefinition<unknown, unknown, unknown>, 'method' | 'scope'>): boolean =>
  route.method === 'POST' && route.scope !== null;

export const isJsonMediaType = (mediaType: string): boolean =>
  mediaType === 'application/json' || mediaType.endsWith('+json');
