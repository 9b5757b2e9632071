import type { Clock } from '../clock.js';
import type { Config } from '../settings/settings.js';
import type { Pricing } from '../pricing/pricing.js';
import type { ConfigService } from '../configs/service.js';
import type { CommandHandler } from '../commands/command-handler.js';
import type { EventStore } from '../store/event-store.js';
import type { JobsReadModel, ReadModelProgress } from './jobs-read-model.js';
import type { JobCredits, TableGenerator } from './ports.js';
import { JobRunner } from './job-runner.js';
import { JobsService, type JobsServiceDeps } from './service.js';

export { JobsService } from './service.js';
export { JobRunner } from './job-runner.js';

export interface JobsDeps {
  config: Config;
  clock: Clock;
  pricing: Pricing;
  store: EventStore;
  commands: CommandHandler;
  projections: ReadModelProgress;
  /** The jobs read model as it is now. */
  jobs: () => JobsReadModel;
  credits: JobCredits;
  configs: Pick<ConfigService, 'resolve' | 'estimatePlanned'>;
  plan: JobsServiceDeps['plan'];
  generate: TableGenerator;
  onError?: (error: unknown) => void;
}

/** One instance's jobs capability: the service the API calls, and the runner (not started) that works the queue. */
export function createJobs(deps: JobsDeps): { service: JobsService; runner: JobRunner } {
  const { config } = deps;
  const service = new JobsService({ ...deps, resultsDir: config.resultsDir });
  const runner = new JobRunner({
    ...deps,
    resultsDir: config.resultsDir,
    leaseMs: config.jobLeaseMs,
    maxJobs: config.jobsPerInstance,
    retentionMs: config.resultsRetentionMs,
  });
  return { service, runner };
}
