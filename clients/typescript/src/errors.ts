import type { components } from './schema.js';

/** An RFC 9457 problem as the service answers it: the documented members and whatever its type adds. */
export type Problem = components['schemas']['Problem'] & Record<string, unknown>;

/** One failing field of a validation problem. */
export type ProblemFieldError = NonNullable<components['schemas']['Problem']['errors']>[number];

/**
 * An error answer of the service. `problem` is the whole problem object, so that members a problem type
 * adds (`credits_required`, `required_scope`, `tables`, …) are reachable; `type` tells problems apart.
 */
export class FinsynthError extends Error {
  readonly status: number;
  /** The problem type URI, `<base>/<slug>`; `about:blank` when the answer was not a problem. */
  readonly type: string;
  readonly title: string;
  readonly detail: string;
  /** The failing fields of a validation problem; empty otherwise. */
  readonly errors: ProblemFieldError[];
  /** The `Request-Id` of the exchange, which the service's logs are searched by. */
  readonly requestId: string | undefined;
  readonly problem: Problem;
  readonly headers: Headers;

  constructor(problem: Problem, headers: Headers = new Headers()) {
    super(`${problem.status} ${problem.title}: ${problem.detail}`);
    this.name = new.target.name;
    this.status = problem.status;
    this.type = problem.type;
    this.title = problem.title;
    this.detail = problem.detail;
    this.errors = problem.errors ?? [];
    this.requestId = problem.request_id ?? headers.get('request-id') ?? undefined;
    this.problem = problem;
    this.headers = headers;
  }

  /** The last segment of `type` (`insufficient-credits`), as the service's documents name problems. */
  get slug(): string {
    return this.type.slice(this.type.lastIndexOf('/') + 1);
  }
}

/** 400 and 422: the request is invalid as sent; `errors` says where. */
export class InvalidRequestError extends FinsynthError {}

/** 401: the key is missing, malformed, unknown or revoked. */
export class AuthenticationError extends FinsynthError {}

/** 402: the request needs more credits than the account has; nothing was charged. */
export class InsufficientCreditsError extends FinsynthError {
  get creditsRequired(): number | undefined {
    return this.problem.credits_required;
  }

  get creditsAvailable(): number | undefined {
    return this.problem.credits_available;
  }
}

/** 403: the key lacks a scope (`required_scope`), or the operation needs a live key. */
export class PermissionError extends FinsynthError {}

/** 404: no such object, or it belongs to the other mode (test and live objects are apart). */
export class NotFoundError extends FinsynthError {}

/** 409: the request conflicts with the object's state, or with another use of its Idempotency-Key. */
export class ConflictError extends FinsynthError {}

/** 429: the tier's request rate is exceeded; thrown once the client's retries are spent. */
export class RateLimitError extends FinsynthError {
  /** Seconds the service asked to wait (`Retry-After`), when it said. */
  get retryAfter(): number | undefined {
    const seconds = Number(this.headers.get('retry-after') ?? Number.NaN);
    return Number.isFinite(seconds) ? seconds : undefined;
  }
}

/** 5xx: the service failed or is unavailable; thrown once the client's retries are spent. */
export class ServerError extends FinsynthError {}

/** No answer was received: the connection failed or broke (`cause` holds the network error). */
export class FinsynthConnectionError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** No answer began within `timeoutMs`. */
export class FinsynthTimeoutError extends FinsynthConnectionError {}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A problem object as parsed from a body, or null when the body is not one. */
function asProblem(body: unknown): Problem | null {
  if (!isRecord(body)) return null;
  const { type, title, status, detail, instance } = body;
  if (typeof type !== 'string' || typeof title !== 'string' || typeof status !== 'number') return null;
  return { ...body, type, title, status, detail: String(detail ?? ''), instance: String(instance ?? '') };
}

/** The error an answer that is not a success is thrown as, from its parsed body (a problem, or anything else). */
export function errorFromResponse(response: Response, body: unknown): FinsynthError {
  // An answer that is not a problem (a proxy's page) is described as RFC 9457 describes `about:blank`.
  const problem = asProblem(body) ?? {
    type: 'about:blank',
    title: response.statusText || `HTTP ${response.status}`,
    status: response.status,
    detail: typeof body === 'string' ? body.slice(0, 500) : '',
    instance: new URL(response.url || 'http://localhost/').pathname,
  };
  const ErrorClass = errorClassOf(response.status);
  return new ErrorClass(problem, response.headers);
}

function errorClassOf(status: number): typeof FinsynthError {
  if (status === 400 || status === 422) return InvalidRequestError;
  if (status === 401) return AuthenticationError;
  if (status === 402) return InsufficientCreditsError;
  if (status === 403) return PermissionError;
  if (status === 404) return NotFoundError;
  if (status === 409) return ConflictError;
  if (status === 429) return RateLimitError;
  if (status >= 500) return ServerError;
  return FinsynthError;
}
