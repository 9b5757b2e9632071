import { ProblemError } from '../../../core/problems.js';
import { JobProblems } from '../../../core/jobs/problems.js';
import type { ApiContext } from '../../http/context.js';

/**
 * A read of one job, made again once this instance's read models have caught up with the store when the job is
 * not found: a job created through another instance a moment ago is not in them until they poll. A job that does
 * not exist costs one read of the store's head; read models that cannot catch up answer 503 projection-lag.
 */
export async function visibleJob<T>(ctx: ApiContext, read: () => T | Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (!(error instanceof ProblemError) || error.type !== JobProblems.notFound) throw error;
    await ctx.services.projections.waitForHead();
    return read();
  }
}
