import type { Logger } from 'pino';
import { ProblemError } from '../../core/problems.js';
import type { ApiContext } from '../context.js';
import { respondWithProblem } from '../problem-response.js';

/**
 * The outermost error boundary: whatever a later middleware or route throws leaves as problem details.
 * Unexpected errors are logged in full with the request id, and answered with nothing of their content.
 */
export function problemDetails(logger: Logger) {
  return async function problemDetailsMiddleware(ctx: ApiContext, next: () => Promise<void>): Promise<void> {
    try {
      await next();
    } catch (error) {
      if (!(error instanceof ProblemError)) logger.error({ err: error, request_id: ctx.state.requestId }, 'unexpected error');
      respondWithProblem(ctx, error);
    }
  };
}
