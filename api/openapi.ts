import type { Config } from '../core/settings/settings.js';
import type { JsonSchema } from '../core/json-schema.js';
import { Problems, allProblemTypes, type ProblemType } from '../core/problems.js';
import { SCOPES } from '../core/auth/scopes.js';
import { HttpProblems } from './http/problems.js';
import { IdempotencyInFlight, IdempotencyKeyReused } from '../core/idempotency/idempotency.js';
import {
  IdempotentReplayNotAcceptable,
  IdempotentResponseNotKept,
  negotiatesFormat,
} from './middleware/idempotency.js';
import { PROBLEM_MEDIA_TYPE } from './http/problem-response.js';
import { problemSchema } from './http/schemas.js';
import { isIdempotent, type RouteDefinition, type RouteGroup, type Tag } from './http/route.js';
import { codeSamples } from './docs/code-samples.js';

type AnyRoute = RouteDefinition<unknown, unknown, unknown>;

const TAG_DESCRIPTIONS: Record<Tag, string> = {
  Generation: 'Synchronous generation of small datasets.',
  Jobs: 'Asynchronous generation: create, follow, cancel, download results.',
  Catalog: 'Sector packs, their tables and the data types.',
  Configuration: 'Generation configs: validate, estimate, save, overlays and composition.',
  Usage: 'Credit consumption and usage records.',
  Billing: 'Subscription, credit balance and purchases, billing history.',
  Keys: 'API keys of the account: issue, list, revoke.',
  Audit: 'The credit history replayed from events, with its verification.',
  Service: 'Health, readiness, metrics, this document and its reference page (GET /docs).',
  Webhooks: 'Endpoints sent signed events (jobs ending, credits low, renewals), and their deliveries.',
};

const commonHeaders = {
  'Request-Id': {
    description: 'Identifies this exchange in the logs and in the events it appended.',
    schema: { type: 'string' },
  },
  RateLimit: {
    description: 'IETF RateLimit: `"<tier>";r=<remaining>;t=<seconds to reset>` (authenticated requests).',
    schema: { type: 'string' },
  },
  'RateLimit-Policy': {
    description: 'IETF RateLimit-Policy: `"<tier>";q=<requests>;w=1` (authenticated requests).',
    schema: { type: 'string' },
  },
};
const headerRefs = Object.fromEntries(
  Object.keys(commonHeaders).map((name) => [name, { $ref: `#/components/headers/${name}` }]),
);

/** The problems the shared pipeline can raise on a route, beyond those the route lists itself. */
function pipelineProblems(route: AnyRoute): ProblemType[] {
  // Every operation refuses query parameters it does not take, also one that takes none.
  const problems: ProblemType[] = [Problems.internal, Problems.validation];
  // What the HTTP layer answers before any route, whatever the path: every operation can meet them.
  problems.push(HttpProblems.malformedRequest, HttpProblems.expectationFailed);
  problems.push(HttpProblems.requestTimeout, HttpProblems.headersTooLarge);
  // Any operation with a key may need the event store (its keys, credits, idempotency claims).
  if (route.scope !== null)
    problems.push(
      HttpProblems.unauthorized,
      HttpProblems.forbidden,
      HttpProblems.rateLimited,
      Problems.storeUnavailable,
    );
  if (route.body)
    problems.push(
      HttpProblems.payloadTooLarge,
      HttpProblems.unsupportedMediaType,
      HttpProblems.malformedJson,
      HttpProblems.invalidEncoding,
      HttpProblems.nestingTooDeep,
      HttpProblems.reservedMember,
      HttpProblems.invalidText,
    );
  if (isIdempotent(route)) {
    problems.push(
      HttpProblems.invalidIdempotencyKey,
      IdempotencyInFlight,
      IdempotencyKeyReused,
      IdempotentResponseNotKept,
    );
    if (negotiatesFormat(route)) problems.push(IdempotentReplayNotAcceptable);
  }
  return problems;
}

/** Headers that come with the problems of a status, whichever problem it is. */
const PROBLEM_HEADERS: Record<number, Record<string, unknown>> = {
  416: {
    'Content-Range': {
      description: '`bytes */<size>`: the size of the file the range missed.',
      schema: { type: 'string' },
    },
  },
  429: {
    'Retry-After': { description: 'Whole seconds to wait, at least 1.', schema: { type: 'integer', minimum: 1 } },
  },
  503: {
    'Retry-After': {
      description: 'Whole seconds to wait before retrying, at least 1.',
      schema: { type: 'integer', minimum: 1 },
    },
  },
};

function problemResponses(problems: ProblemType[]): Record<string, unknown> {
  const byStatus = new Map<number, ProblemType[]>();
  for (const type of problems) {
    const list = byStatus.get(type.status) ?? [];
    if (!list.includes(type)) list.push(type);
    byStatus.set(type.status, list);
  }
  return Object.fromEntries(
    [...byStatus.entries()].map(([status, types]) => [
      String(status),
      {
        description: types.map((type) => `\`${type.slug}\`: ${type.description}`).join('\n\n'),
        headers: { ...headerRefs, ...PROBLEM_HEADERS[status] },
        content: { [PROBLEM_MEDIA_TYPE]: { schema: { $ref: '#/components/schemas/Problem' } } },
        'x-problem-slugs': types.map((type) => type.slug),
      },
    ]),
  );
}

const idempotencyKeyParameter = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Makes the POST safe to retry: a repeat with the same key and body replays the first response (kept 24 hours).',
  schema: { type: 'string', minLength: 1, maxLength: 257 },
};

function parameters(route: AnyRoute): unknown[] {
  const path = Object.entries(route.params ?? {}).map(([name, schema]) => ({
    name,
    in: 'path',
    required: true,
    schema,
  }));
  const query = Object.entries(route.query?.properties ?? {}).map(([name, schema]) => ({
    name,
    in: 'query',
    required: route.query?.required?.includes(name) ?? false,
    ...(typeof schema.description === 'string' ? { description: schema.description } : {}),
    schema,
  }));
  const headers = Object.entries(route.requestHeaders ?? {}).map(([name, { description, schema }]) => ({
    name,
    in: 'header',
    required: false,
    description,
    schema,
  }));
  return [...path, ...query, ...headers, ...(isIdempotent(route) ? [idempotencyKeyParameter] : [])];
}

const media = (content: Record<string, JsonSchema>) =>
  Object.fromEntries(Object.entries(content).map(([type, schema]) => [type, { schema }]));

function operation(route: AnyRoute, tag: Tag): Record<string, unknown> {
  const responses: Record<string, unknown> = {};
  for (const [status, response] of Object.entries(route.responses)) {
    responses[status] = {
      description: response.description,
      headers: { ...headerRefs, ...response.headers },
      ...(response.content ? { content: media(response.content) } : {}),
    };
  }
  Object.assign(responses, problemResponses([...pipelineProblems(route), ...(route.problems ?? [])]));
  // Renderers show the description but not every extension: the scope is said in words too.
  const scope = route.scope === null ? 'No key needed.' : `Scope: \`${route.scope}\`.`;
  return {
    operationId: route.operationId,
    summary: route.summary,
    description: route.description ? `${route.description}\n\n${scope}` : scope,
    tags: [tag],
    security: route.scope === null ? [] : [{ bearer: [] }],
    ...(route.scope === null ? {} : { 'x-required-scope': route.scope }),
    ...(route.params || route.query || route.requestHeaders || isIdempotent(route)
      ? { parameters: parameters(route) }
      : {}),
    ...(route.body
      ? {
          requestBody: {
            required: route.body.required ?? true,
            ...(route.body.description ? { description: route.body.description } : {}),
            content: media(route.body.content),
          },
        }
      : {}),
    responses,
    'x-codeSamples': codeSamples(route),
  };
}

/**
 * The OpenAPI 3.1 document of every route, built from the same definitions that the router registers
 * and ajv validates with. The problem types are read from the registry of defined problems, so a
 * module that defines one publishes it.
 */
export function openApiDocument(groups: readonly RouteGroup[], config: Config): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const group of groups) {
    for (const route of group.routes as AnyRoute[]) {
      paths[route.path] ??= {};
      paths[route.path]![route.method.toLowerCase()] = operation(route, group.tag);
    }
  }
  const served = new Set(groups.map((group) => group.tag));
  const tags = (Object.keys(TAG_DESCRIPTIONS) as Tag[]).filter((tag) => served.has(tag));
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: 'finsynth',
      version: '1.0.0',
      summary: 'Synthetic financial datasets, metered in credits.',
      // The service is not open source (its package is private, its client's UNLICENSED): an SPDX reference of its own.
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
      description:
        `Authenticate with \`Authorization: Bearer ${config.keyPrefix}_live_…\` (credits consumed) ` +
        `or \`${config.keyPrefix}_test_…\` (sandbox). ` +
        `Errors are RFC 9457 problem details whose \`type\` is \`${config.errorTypeBase}/<slug>\`; ` +
        `\`x-problem-types\` lists every slug. ` +
        'Every POST accepts an `Idempotency-Key` header.',
    },
    // Relative: the service that serves this document, at whatever origin its clients reach it (RFC 3986 resolution).
    servers: [{ url: '/', description: 'This service: the origin that served this document.' }],
    tags: tags.map((name) => ({ name, description: TAG_DESCRIPTIONS[name] })),
    paths,
    components: {
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description: `An API key; its scopes (${SCOPES.join(', ')}) decide which operations it may call.`,
        },
      },
      schemas: { Problem: problemSchema },
      headers: commonHeaders,
    },
    'x-problem-types': allProblemTypes().map((type) => ({ ...type, type: `${config.errorTypeBase}/${type.slug}` })),
  };
}
