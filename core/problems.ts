/**
 * Problem types (RFC 9457). Each module defines the problems it can raise next to its code, with
 * `defineProblem`; the API renders any ProblemError and the OpenAPI document lists every defined type.
 * Core code speaks in problem types rather than HTTP so that the CLI and the API report the same thing.
 */

export interface ProblemType {
  slug: string;
  title: string;
  status: number;
  /** When this problem happens and what the client can do: published in the OpenAPI document and README. */
  description: string;
}

const problemTypes = new Map<string, ProblemType>();

export function defineProblem(type: ProblemType): ProblemType {
  const existing = problemTypes.get(type.slug);
  if (existing && (existing.status !== type.status || existing.title !== type.title)) {
    throw new Error(`problem type "${type.slug}" is defined twice, differently`);
  }
  problemTypes.set(type.slug, type);
  return type;
}

export function allProblemTypes(): ProblemType[] {
  return [...problemTypes.values()].sort((a, b) => a.status - b.status || a.slug.localeCompare(b.slug));
}

export class ProblemError extends Error {
  constructor(
    readonly type: ProblemType,
    readonly detail: string,
    /** Extra members of the problem object, snake_case (e.g. credits_required). */
    readonly extensions: Record<string, unknown> = {},
    /** Response headers that belong to the problem (e.g. Retry-After). */
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
    this.name = 'ProblemError';
  }
}

export function problem(
  type: ProblemType,
  detail: string,
  extensions?: Record<string, unknown>,
  headers?: Record<string, string>,
): ProblemError {
  return new ProblemError(type, detail, extensions, headers);
}

// The generic types every module may raise.
export const Problems = {
  badRequest: defineProblem({
    slug: 'bad-request',
    title: 'Bad Request',
    status: 400,
    description: 'The request is malformed.',
  }),
  validation: defineProblem({
    slug: 'validation-failed',
    title: 'Bad Request',
    status: 400,
    description: 'The body or parameters fail the schema; `errors` lists each failing field with a JSON pointer.',
  }),
  notFound: defineProblem({
    slug: 'not-found',
    title: 'Not Found',
    status: 404,
    description: 'The resource does not exist, or is not visible to this key (test and live objects are apart).',
  }),
  conflict: defineProblem({
    slug: 'conflict',
    title: 'Conflict',
    status: 409,
    description: 'The request conflicts with the current state of the resource.',
  }),
  storeUnavailable: defineProblem({
    slug: 'store-unavailable',
    title: 'Service Unavailable',
    status: 503,
    description:
      'The event store cannot be reached or does not answer in time (a restart, a failover, an outage). ' +
      'Retry after `Retry-After` seconds, ' +
      'a POST with the same Idempotency-Key: the instance reconnects by itself once the store is back.',
  }),
  internal: defineProblem({
    slug: 'internal-error',
    title: 'Internal Server Error',
    status: 500,
    description: 'An unexpected error on the service side; the request id identifies it in the logs.',
  }),
};
