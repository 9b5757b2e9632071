import type { ProjectionRunner } from './runner/projection-runner.js';
import type { UsageRecords } from './usage/usage-records.js';

/**
 * Every read model the service keeps rebuilt from the first event in one read: the projections replayed in this
 * thread, and the usage records' changes taken from the same pages of events.
 */
export function rebuildReadModels(runner: ProjectionRunner, usageRecords: UsageRecords): Promise<void> {
  return usageRecords.rebuildAlongside((page) => runner.rebuildAll(page));
}
