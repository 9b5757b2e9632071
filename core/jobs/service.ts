import { randomBytes, randomInt } from 'node:crypto';
import { join } from 'node:path';
import type { Clock } from '../clock.js';
import type { Pricing } from '../pricing/pricing.js';
import type { ConfigInput } from '../configs/config-input.js';
import type { SourceMap } from '../configs/source-map.js';
import type { GenerationConfig } from '../configs/config-schema.js';
import type { Plan } from '../generation/plan-types.js';
import type { ConfigService } from '../configs/service.js';
import type { ConfigEstimate } from '../configs/estimate.js';
import type { ConcurrentJobLimits } from '../accounts/credits.js';
import { TIERS } from '../accounts/profile.js';
import type { CommandHandler } from '../commands/command-handler.js';
import { jobDecider, jobStream, JobProblems } from './job.js';
import type { EventMetadata, Mode } from '../events/envelope.js';
import { problem } from '../problems.js';
import type { JobsReadModel, JobView, ReadModelProgress } from './jobs-read-model.js';
import type { JobCredits } from './ports.js';
import { jobDirectory, REPORT_FILE } from './result-files.js';

export interface JobOwner {
  accountId: string;
  mode: Mode;
}

export interface JobsServiceDeps {
  commands: CommandHandler;
  projections: ReadModelProgress;
  /** The jobs read model as it is now. */
  jobs: () => JobsReadModel;
  configs: Pick<ConfigService, 'resolve' | 'estimatePlanned'>;
  credits: JobCredits;
  /** The engine's plan of a config (JSON-ready); refuses unknown tables or options with a ProblemError. */
  plan: (config: GenerationConfig) => Promise<Plan>;
  pricing: Pricing;
  clock: Clock;
  resultsDir: string;
}

export interface CreateJobRequest extends JobOwner {
  keyId: string;
  input: ConfigInput;
  /** Where the parts of a JSON body stand: the issues of an inline config then say their line and column. */
  inputSource?: SourceMap;
  metadata?: EventMetadata;
}

/** How long a cancel request waits for the runner to confirm before answering "cancel requested". */
const CANCEL_WAIT_MS = 2000;
/** Seeds drawn for configs that give none: recorded in the job, so every attempt gives the same bytes. */
const SEED_RANGE = 2 ** 31;

/**
 * The jobs capability as the API calls it. Writes go through the job decider; reads come from the
 * jobs projection after waiting for the caller's own write (read-your-writes). Test-mode jobs are
 * visible only to test keys and live ones only to live keys: a job of the other mode is a 404.
 */
export class JobsService {
  private readonly concurrentJobs: ConcurrentJobLimits;

  constructor(private readonly deps: JobsServiceDeps) {
    this.concurrentJobs = Object.fromEntries(
      TIERS.map((tier) => [tier, deps.pricing.tiers[tier].concurrent_jobs]),
    ) as ConcurrentJobLimits;
  }

  /**
   * Resolves and prices the config, reserves the credits, queues the job. The reservation is the job's
   * slot: the account stream refuses one over the tier's concurrent-job limit (429), for every instance
   * of a fleet at once. Queued and running jobs count, per account and mode.
   */
  async create(request: CreateJobRequest): Promise<JobView> {
    const { accountId, mode, keyId, input, inputSource, metadata } = request;
    const resolved = await this.deps.configs.resolve({ accountId, mode }, input, inputSource);
    const config = { ...resolved.config, seed: resolved.config.seed ?? randomInt(SEED_RANGE) };
    const { format, compression, report } = config.output;
    const output = { format, compression, ...(report ? { report } : {}) };
    const jobId = `job_${randomBytes(12).toString('hex')}`;
    const reservationOf = (priced: ConfigEstimate) => ({
      accountId,
      mode,
      keyId,
      reference: jobId,
      sector: config.sector,
      tables: priced.tables.map(({ name, rows, credits }) => ({ name, rows, credits })),
      credits: priced.credits,
      concurrentJobs: this.concurrentJobs,
    });
    // Planning may walk millions of parents in the shared pool: only for a job the account can pay for.
    await this.deps.credits.checkReservable(reservationOf(resolved.estimate));
    const plan = await this.deps.plan(config);
    // The tables delivered are those the plan generates: a walk may have grown a referenced table.
    const unrequested = plan.tables.filter((table) => !table.requested).map(({ name, rows }) => ({ name, rows }));
    const reservation = reservationOf(this.deps.configs.estimatePlanned(config, unrequested));
    const estimate = { credits: reservation.credits, tables: reservation.tables };
    // The slot and the credits first, then the job. A crash between the two leaves a reservation
    // without its job: the runners release it (reconcile-reservations.ts).
    await this.deps.credits.reserve(reservation);
    const command = {
      type: 'CreateJob',
      job_id: jobId,
      account_id: accountId,
      mode,
      key_id: keyId,
      config: { ...config },
      plan,
      output,
      estimate,
      at: this.now(),
    } as const;
    const created = await this.deps.commands
      .handle(jobDecider, jobStream(jobId), command, { metadata })
      .catch(async (error: unknown) => {
        await this.deps.credits.release(accountId, jobId, 'job could not be created');
        throw error;
      });
    await this.deps.projections.waitFor(created.position);
    return this.get({ accountId, mode }, jobId);
  }

  /**
   * Every job of the owner, newest first; filtering (`jobMatches`) and pagination are the caller's (the
   * API pages by job id).
   */
  list(owner: JobOwner): JobView[] {
    return this.deps.jobs().ownerJobs(owner.accountId, owner.mode);
  }

  get(owner: JobOwner, jobId: string): JobView {
    const job = this.deps.jobs().job(jobId);
    if (!job || job.account_id !== owner.accountId || job.mode !== owner.mode)
      throw problem(JobProblems.notFound, `no job ${jobId}`);
    return job;
  }

  /**
   * A queued job is cancelled at once and its credits released; a running job is asked to stop, and
   * the answer waits (briefly) for its runner to confirm and release the credits (it appends the
   * cancel first), so that a job created right after the answer finds the slot free. A finished job is
   * a 409 problem.
   */
  async cancel(owner: JobOwner, jobId: string, metadata?: EventMetadata): Promise<JobView> {
    this.get(owner, jobId);
    const result = await this.deps.commands.handle(
      jobDecider,
      jobStream(jobId),
      { type: 'RequestCancel', at: this.now() },
      { metadata },
    );
    if (result.events.some((event) => event.type === 'JobCancelled')) {
      await this.deps.credits.release(owner.accountId, jobId, 'job cancelled');
    }
    await this.deps.projections.waitFor(result.position);
    const deadline = Date.now() + CANCEL_WAIT_MS;
    const unsettled = () => {
      const { state } = this.get(owner, jobId);
      return state === 'running' || (state === 'cancelled' && this.deps.jobs().holdsReservation(jobId));
    };
    while (unsettled() && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      await this.deps.projections.waitForHead();
    }
    return this.get(owner, jobId);
  }

  /** The job's files, or why there are none: 409 while it has not succeeded, 410 once they expired. */
  results(owner: JobOwner, jobId: string): JobView {
    const job = this.get(owner, jobId);
    if (job.results_expired_at !== null)
      throw problem(
        JobProblems.resultsExpired,
        `the results of job ${jobId} were removed at ${job.results_expired_at}`,
      );
    if (job.state !== 'succeeded')
      throw problem(JobProblems.notSucceeded, `job ${jobId} is ${job.state}; results exist once it has succeeded`);
    return job;
  }

  /** One table's result file and where it lies on disk. */
  resultFile(owner: JobOwner, jobId: string, table: string) {
    const { files } = this.results(owner, jobId);
    const file = files.find((candidate) => candidate.table === table);
    if (!file) {
      const tables = files.map((candidate) => candidate.table);
      throw problem(
        JobProblems.resultTableNotFound,
        `job ${jobId} has no result table ${table}; its tables are ${tables.join(', ')}`,
        { tables },
      );
    }
    return { ...file, path: join(jobDirectory(this.deps.resultsDir, jobId), file.file) };
  }

  /** Where a succeeded job's conformance report lies on disk (core/reports/), its state checked as for its files. */
  reportPath(owner: JobOwner, jobId: string): string {
    this.results(owner, jobId);
    return join(jobDirectory(this.deps.resultsDir, jobId), REPORT_FILE);
  }

  private now(): string {
    return this.deps.clock.now().toISOString();
  }
}
