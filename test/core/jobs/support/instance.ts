import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Clock } from '../../../../core/clock.js';
import { loadPricing } from '../../../../core/pricing/pricing.js';
import { packCatalog } from '../../../../core/catalog/packs-for-configs.js';
import { ConfigService } from '../../../../core/configs/service.js';
import type { Tier } from '../../../../core/accounts/profile.js';
import { CreditsService } from '../../../../core/accounts/credits-service.js';
import { accountDecider, accountStream } from '../../../../core/accounts/account.js';
import { CommandHandler } from '../../../../core/commands/command-handler.js';
import { eventDefinitions } from '../../../../core/services/event-definitions.js';
import { jobDecider, jobStream, type OutputFormat, type Compression } from '../../../../core/jobs/job.js';
import { EventRegistry } from '../../../../core/events/registry.js';
import type { Mode } from '../../../../core/events/envelope.js';
import { buildPlan } from '../../../../core/generation/plan.js';
import type { Engine } from '../../../../core/packs/engine.js';
import type { TableGenerator } from '../../../../core/jobs/ports.js';
import { JobRunner } from '../../../../core/jobs/job-runner.js';
import { JobsService } from '../../../../core/jobs/service.js';
import type { EventStore } from '../../../../core/store/event-store.js';
import { jobsProjection, type JobsState } from '../../../../projections/jobs/jobs.js';
import { jobsReadModel } from '../../../../projections/jobs/jobs-queries.js';
import { ProjectionRunner } from '../../../../projections/runner/projection-runner.js';

/**
 * One service instance as far as jobs go: its own store connection, projections, credits, engine, jobs
 * service and runner.
 */
export interface JobsInstance {
  store: EventStore;
  engine: Engine;
  commands: CommandHandler;
  projections: ProjectionRunner;
  credits: CreditsService;
  service: JobsService;
  runner: JobRunner;
  jobs(): JobsState;
  stop(): Promise<void>;
}

/**
 * Schemas compiled once for every instance of the process (about a second each on this machine): the
 * registry holds no state of its own, so sharing it takes nothing from the instances' independence.
 */
const registry = new EventRegistry(eventDefinitions);
const pricing = loadPricing();

export async function startInstance(options: {
  store: EventStore;
  engine: Engine;
  clock: Clock;
  resultsDir: string;
  leaseMs?: number;
  maxJobs?: number;
  retentionMs?: number;
  instanceId?: string;
  /** The engine's pool by default. */
  generate?: TableGenerator;
}): Promise<JobsInstance> {
  const { store, clock } = options;
  const commands = new CommandHandler(store, registry);
  const projections = new ProjectionRunner(store, registry, [jobsProjection], undefined, { pollIntervalMs: 20 });
  await projections.start();
  const credits = new CreditsService(commands);
  const jobs = () => projections.state<JobsState>('jobs');
  const readModel = () => jobsReadModel(jobs());
  const service = new JobsService({
    commands,
    projections,
    jobs: readModel,
    configs: new ConfigService({ catalog: packCatalog(options.engine.packs), commands, credits, clock }),
    credits,
    plan: (config) => options.engine.plan(config),
    pricing,
    clock,
    resultsDir: options.resultsDir,
  });
  const runner = new JobRunner({
    commands,
    credits,
    generate: options.generate ?? poolGenerator(options.engine),
    clock,
    resultsDir: options.resultsDir,
    leaseMs: options.leaseMs ?? 10_000,
    maxJobs: options.maxJobs ?? 2,
    retentionMs: options.retentionMs ?? 3_600_000,
    instanceId: options.instanceId,
    pollMs: 20,
    jobs: readModel,
    onError: (error) => console.error('runner error', error),
  });
  return {
    store,
    engine: options.engine,
    commands,
    projections,
    credits,
    service,
    runner,
    jobs,
    async stop() {
      await runner.stop();
      await projections.stop();
    },
  };
}

const poolGenerator =
  (engine: Engine): TableGenerator =>
  (plan, table, options) =>
    engine.pool.generate(plan, table, options);

/**
 * The pool's first chunk of each table, then nothing until the job is stopped: a job that stays
 * running for as long as a test needs it to, however fast or loaded the machine.
 */
export function stallingGenerator(engine: Engine): TableGenerator {
  return async function* (plan, table, options) {
    for await (const chunk of poolGenerator(engine)(plan, table, options)) {
      yield chunk;
      await new Promise((_, reject) => {
        const { signal } = options;
        if (signal.aborted) reject(signal.reason as Error);
        signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
      });
    }
  };
}

export const tempDir = (prefix: string): string => mkdtempSync(join(tmpdir(), `finsynth-${prefix}-`));

export async function openAccount(
  instance: JobsInstance,
  accountId: string,
  credits: number,
  at: string,
  tier: Tier = 'team',
): Promise<void> {
  await instance.commands.handle(accountDecider, accountStream(accountId), {
    type: 'OpenAccount',
    accountId,
    tier,
    at,
  });
  await instance.credits.grant({ accountId, amount: credits, reference: `grant-${accountId}`, reason: 'test' });
}

/**
 * Queues a job as the jobs service does (reserve, plan, create), for runner tests that need no config
 * resolution. Credits: 1 per 1,000 rows.
 */
export async function queueJob(
  instance: JobsInstance,
  job: {
    jobId: string;
    accountId: string;
    mode?: Mode;
    rows: Record<string, number>;
    format?: OutputFormat;
    compression?: Compression;
    at: string;
  },
): Promise<number> {
  const mode = job.mode ?? 'live';
  const tables = Object.entries(job.rows).map(([name, rows]) => ({
    name,
    rows,
    credits: Math.max(1, Math.ceil(rows / 1000)),
  }));
  const credits = tables.reduce((sum, table) => sum + table.credits, 0);
  await instance.credits.reserve({
    accountId: job.accountId,
    mode,
    keyId: 'key_test',
    reference: job.jobId,
    sector: 'cards',
    tables,
    credits,
  });
  const config = { version: 1, sector: 'cards', seed: 7, tables: tables.map(({ name, rows }) => ({ name, rows })) };
  const plan = buildPlan(instance.engine.packs, config);
  const result = await instance.commands.handle(jobDecider, jobStream(job.jobId), {
    type: 'CreateJob',
    job_id: job.jobId,
    account_id: job.accountId,
    mode,
    key_id: 'key_test',
    config,
    plan,
    output: { format: job.format ?? 'csv', compression: job.compression ?? 'none' },
    estimate: { credits, tables },
    at: job.at,
  });
  return result.position;
}

/** Polls the read model until `predicate` holds (the runner works in the background). */
export async function until(
  instance: JobsInstance,
  predicate: (jobs: JobsState) => boolean,
  timeoutMs = 90_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await instance.projections.waitForHead();
    if (predicate(instance.jobs())) return;
    if (Date.now() > deadline)
      throw new Error(
        `condition not reached within ${timeoutMs} ms: ` +
          JSON.stringify(Object.values(instance.jobs().jobs).map((job) => [job.id, job.state, job.progress])),
      );
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
