import type { Logger } from 'pino';
import { ProblemError } from '../../core/problems.js';
import { isStoreUnavailable, storeUnavailableProblem } from '../../core/store/store-unavailable.js';
import type { ApiContext } from '../http/context.js';
import { respondWithProblem } from '../http/problem-response.js';

/**
 * The outermost error boundary: whatever a later middleware or route throws leaves as problem details.
 * A store that cannot be reached or does not answer in time is a 503 with Retry-After: the client may
 * retry, and the instance reconnects by itself. Other unexpected errors are logged in full with the
 * request id, and answered with nothing of their content.
 */
export function problemDetails(logger: Logger) {
  return async function problemDetailsMiddleware(ctx: ApiContext, next: () => Promise<void>): Promise<void> {
    try {
      await next();
    } catch (error) {
      if (error instanceof ProblemError) return respondWithProblem(ctx, error);
      if (isStoreUnavailable(error)) {
        logger.warn({ err: error, request_id: ctx.state.requestId }, 'the event store is unavailable');
        return respondWithProblem(ctx, storeUnavailableProblem());
      }
      logger.error({ err: error, request_id: ctx.state.requestId }, 'unexpected error');
      respondWithProblem(ctx, error);
    }
  };
}
