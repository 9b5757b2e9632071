import { Problems, ProblemError } from '../../core/problems.js';
import type { ApiContext } from './context.js';

export const PROBLEM_MEDIA_TYPE = 'application/problem+json';

/** The RFC 9457 body of a problem on this request, with the members fixed by the interface spec first. */
export function problemBody(ctx: ApiContext, error: ProblemError): Record<string, unknown> {
  return {
    type: `${ctx.services.config.errorTypeBase}/${error.type.slug}`,
    title: error.type.title,
    status: error.type.status,
    detail: error.detail,
    instance: ctx.path,
    request_id: ctx.state.requestId,
    ...error.extensions,
  };
}

/** Sends a problem; anything that is not a ProblemError becomes a 500 that reveals nothing of its cause. */
export function respondWithProblem(ctx: ApiContext, error: unknown): void {
  const known =
    error instanceof ProblemError
      ? error
      : new ProblemError(Problems.internal, 'an unexpected error occurred; quote the request id when reporting it');
  ctx.status = known.type.status;
  for (const [name, value] of Object.entries(known.headers)) ctx.set(name, value);
  ctx.body = problemBody(ctx, known);
  ctx.type = PROBLEM_MEDIA_TYPE;
}
