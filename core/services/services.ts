import { join } from 'node:path';
import { Redis } from 'ioredis';
import { pino, type Logger } from 'pino';
import { Registry } from 'prom-client';
import type { Config } from '../settings/settings.js';
import { systemClock, type Clock } from '../clock.js';
import { loadPricing, type Pricing } from '../pricing/pricing.js';
import { EventRegistry } from '../events/registry.js';
import type { EventStore } from '../store/event-store.js';
import { openEventStore } from '../store/open-store.js';
import { CommandHandler } from '../commands/command-handler.js';
import { eventDefinitions } from './event-definitions.js';
import { ProjectionRunner } from '../../projections/runner/projection-runner.js';
import { projections } from '../../projections/index.js';
import { UsageRecords } from '../../projections/usage/usage-records.js';
import { usageRecordsFor } from '../../projections/usage/usage-records-for-store.js';
import { rebuildIfMissing } from '../../projections/rebuild-read-models.js';
import { RateLimits } from '../rate-limits/rate-limits.js';
import { CreditsService } from '../accounts/credits-service.js';
import { RefundOutbox } from '../accounts/refund-outbox.js';
import { BillingService } from '../billing/billing-service.js';
import { SandboxPaymentProvider } from '../payments/sandbox-payment-provider.js';
import { scheduleBillingRun } from '../billing/billing-schedule.js';
import type { PaymentProvider } from '../payments/payment-provider.js';
import { ConfigService } from '../configs/service.js';
import { packCatalog } from '../catalog/packs-for-configs.js';
import { Catalog } from '../catalog/catalog.js';
import { createEngine } from '../packs/engine.js';
import { createJobs, type JobRunner, type JobsService } from '../jobs/capability.js';
import type { PackRegistry } from '../packs/registry.js';
import type { GenerationPool } from '../generation/pool.js';
import { unexpectedErrors, type UnexpectedErrors } from '../faults/unexpected-errors.js';
import { backgroundFailureLog } from '../store/background-failures.js';
import { accountsWithBillingWork, BILLING_PROJECTION, type BillingModel } from '../../projections/billing/billing.js';
import { jobsReadModel } from '../../projections/jobs/jobs-queries.js';
import type { JobsState } from '../../projections/jobs/jobs.js';
import { createWebhooks, type WebhooksService } from '../webhooks/capability.js';
import { webhooksReadModel } from '../../projections/webhooks/webhooks-read-model.js';
import { WEBHOOK_ENDPOINTS_PROJECTION, type WebhookEndpointsModel } from '../../projections/webhooks/endpoints.js';
import { WEBHOOK_DELIVERIES_PROJECTION, type WebhookDeliveriesModel } from '../../projections/webhooks/deliveries.js';
import { schedulerCheckpoints } from '../../projections/webhooks/scheduler-checkpoints.js';
import { snapshotStoreFor } from '../../projections/runner/snapshot-for-store.js';
import { AuditLog } from '../audit/log/audit-log.js';
import { treeStorageFor } from '../audit/log/tree-storage-for-store.js';

/**
 * The composition root: everything a process of finsynth (server, CLI, tests) works with, built once
 * from the configuration. Each concept adds its own fields here.
 */
export interface Services {
  config: Config;
  clock: Clock;
  pricing: Pricing;
  store: EventStore;
  registry: EventRegistry;
  commands: CommandHandler;
  projections: ProjectionRunner;
  /** The usage records, kept in a table of the store's database and brought up to date before each read. */
  usageRecords: UsageRecords;
  rateLimits: RateLimits;
  /** Credit movements of accounts (grant, debit, refund, reserve, settle, release, balance). */
  credits: CreditsService;
  /** Refunds of failed work, kept in the data folder until the store takes them (drained when `background`). */
  refunds: RefundOutbox;
  /** Subscriptions, renewals and credit purchases. */
  billing: BillingService;
  /**
   * Generation configs and overlays: validate, estimate, compose, save; `resolve` turns a job's config
   * input into a valid config.
   */
  configs: ConfigService;
  /** The loaded sector packs. */
  packs: PackRegistry;
  /** The generation worker pool. */
  pool: GenerationPool;
  /** What the loaded sector packs offer, as GET /v1/catalog shows it. */
  catalog: Catalog;
  /** Asynchronous jobs: create, list, get, cancel, results. */
  jobs: JobsService;
  /** This instance's job runner, started here: it claims queued jobs and takes over orphaned ones. */
  jobRunner: JobRunner;
  /** Webhook endpoints; when `background`, this instance also schedules and sends their deliveries. */
  webhooks: WebhooksService;
  /** The transparency log of every event: Merkle tree, proofs, signed checkpoints (kept up when `background`). */
  auditLog: AuditLog;
  /** The Prometheus registry served at /metrics; each module registers its own metrics here. */
  metrics: Registry;
  /** Where errors of the service's pools, clients, streams and sockets are logged and counted. */
  faults: UnexpectedErrors;
  /** Stops the projections (writing their snapshots), then closes the connections. */
  close(): Promise<void>;
}

export interface ServiceOverrides {
  /** A store opened by the caller (tests: MemoryEventStore); closed with the services all the same. */
  store?: EventStore;
  clock?: Clock;
  /** Prices and limits other than the pricing file's (the API bench lifts the rate limit it measures around). */
  pricing?: Pricing;
  /** The payment provider (tests: a stub that fails at a chosen moment); the sandbox provider by default. */
  payments?: PaymentProvider;
  /**
   * Whether this process does the background work of an instance: run jobs, renew subscriptions.
   * True for servers; one-shot commands (`finsynth accounts create`) pass false, so that a CLI run
   * never claims a job it would abandon a moment later.
   */
  background?: boolean;
  /**
   * Whether the generation pool warms up at start, every worker making a few rows of every table (with the
   * background work by default). The test app skips it: seconds of CPU per service, which no test of it needs.
   */
  warmPool?: boolean;
  /** Where background failures (projections, renewals, jobs) are logged; JSON lines on stderr by default. */
  logger?: Logger;
  /** How often the read models look for new events (100 ms); tests slow it to show what a lagging instance does. */
  projectionPollMs?: number;
  /** From how many events read models missing altogether are rebuilt rather than caught up (REBUILD_FROM_EVENTS). */
  rebuildFromEvents?: number;
}

export async function createServices(config: Config, overrides: ServiceOverrides = {}): Promise<Services> {
  const clock = overrides.clock ?? systemClock;
  const background = overrides.background ?? true;
  const pricing = overrides.pricing ?? loadPricing();
  const logger = overrides.logger ?? pino({ level: config.logLevel }, pino.destination(2));
  const metrics = new Registry();
  const faults = unexpectedErrors(logger, metrics);
  const store = overrides.store ?? (await openEventStore(config, { faults }));
  const registry = new EventRegistry(eventDefinitions);
  const logFailure = backgroundFailureLog(logger);
  const runner = new ProjectionRunner(store, registry, projections, undefined, {
    onError: logFailure('projection catch-up failed'),
    ...(overrides.projectionPollMs !== undefined ? { pollIntervalMs: overrides.projectionPollMs } : {}),
  });
  const usageRecords = usageRecordsFor(store, registry);
  const redis = config.redisUrl ? await connectRedis(config.redisUrl, faults) : undefined;
  try {
    const started = performance.now();
    const rebuilt = await rebuildIfMissing(store, runner, usageRecords, overrides.rebuildFromEvents);
    if (rebuilt !== null) {
      const seconds = Number(((performance.now() - started) / 1000).toFixed(2));
      logger.info({ events: rebuilt, seconds }, 'read models rebuilt from the first event');
    }
    await runner.start();
  } catch (error) {
    redis?.disconnect();
    await store.close();
    throw error;
  }
  const engine = await createEngine(config, { warn: (message) => logger.warn(message), pool: { faults } });
  // In the background: the service is ready at once; a generation asked for in the first seconds waits
  // for the warm-up, which does what its own first chunks would otherwise have done.
  if (overrides.warmPool ?? background) engine.pool.warm().catch(logFailure('generation pool warm-up failed'));
  const commands = new CommandHandler(store, registry);
  const credits = new CreditsService(commands);
  const refunds = new RefundOutbox({
    directory: join(config.dataDir, 'refunds-owed'),
    credits,
    onError: (error, context) => faults.report('refund-outbox', error, context),
  });
  const billing = new BillingService(credits, overrides.payments ?? new SandboxPaymentProvider(), pricing, clock);
  const renewals = background
    ? scheduleBillingRun({
        billing,
        clock,
        dueAccounts: (now) => accountsWithBillingWork(runner.state<BillingModel>(BILLING_PROJECTION), now),
        intervalMs: 60_000,
        onError: logFailure('billing run failed'),
      })
    : undefined;
  const configs = new ConfigService({ catalog: packCatalog(engine.packs), commands, credits, clock });
  const jobs = createJobs({
    config,
    clock,
    pricing,
    store,
    commands,
    projections: runner,
    jobs: () => jobsReadModel(runner.state<JobsState>('jobs')),
    credits,
    configs,
    plan: (request) => engine.plan(request),
    generate: (plan, table, options) => engine.pool.generate(plan, table, options),
    onError: logFailure('job runner failed'),
  });
  if (background) jobs.runner.start();
  const webhooks = createWebhooks({
    config,
    clock,
    store,
    registry,
    commands,
    webhooks: () =>
      webhooksReadModel(
        runner.state<WebhookEndpointsModel>(WEBHOOK_ENDPOINTS_PROJECTION),
        runner.state<WebhookDeliveriesModel>(WEBHOOK_DELIVERIES_PROJECTION),
      ),
    checkpoints: schedulerCheckpoints(snapshotStoreFor(store)),
    onError: logFailure('webhooks failed'),
  });
  if (background) refunds.start();
  const auditLog = new AuditLog({
    store,
    storage: treeStorageFor(store),
    keyFile: config.auditKeyFile,
    origin: config.auditOrigin,
    checkpointIntervalMs: config.auditCheckpointIntervalMs,
    onError: logFailure('audit log failed'),
  });
  if (background) usageRecords.start(1000, logFailure('usage records catch-up failed'));
  const services: Services = {
    config,
    clock,
    pricing,
    store,
    registry,
    commands,
    projections: runner,
    usageRecords,
    credits,
    refunds,
    billing,
    configs,
    catalog: new Catalog(engine.packs),
    packs: engine.packs,
    pool: engine.pool,
    jobs: jobs.service,
    jobRunner: jobs.runner,
    webhooks: webhooks.service,
    auditLog,
    rateLimits: new RateLimits(pricing, redis, { onRedisFailure: (error) => faults.report('rate-limits', error) }),
    metrics,
    faults,
    async close() {
      if (background) await jobs.runner.stop({ handOver: true });
      await webhooks.stop();
      await auditLog.stop();
      await refunds.stop();
      await renewals?.stop();
      await usageRecords.stop();
      await runner.stop();
      await engine.close();
      redis?.disconnect();
      await store.close();
    },
  };
  // The signing key is read (or created) now, so that a key file that cannot be read stops the start.
  if (background)
    await webhooks.start().catch(async (error: unknown) => {
      await services.close();
      throw error;
    });
  // Likewise the audit log's key; the tree is brought up to date and a first checkpoint signed before serving.
  if (background)
    await auditLog.start().catch(async (error: unknown) => {
      await services.close();
      throw error;
    });
  return services;
}

/**
 * Connects before serving, so that the first requests already share the fleet's limits. An outage
 * (at start or later) is not fatal: ioredis reconnects in the background, and meanwhile the rate
 * limiter's memory insurance answers, which is why its connection errors are not raised further.
 * They are reported once per outage: ioredis emits one for every attempt to reconnect.
 */
export async function connectRedis(url: string, faults: UnexpectedErrors): Promise<Redis> {
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    lazyConnect: true,
    connectTimeout: 2000,
  });
  let reported = false;
  redis.on('error', (error: unknown) => {
    if (reported) return;
    reported = true;
    faults.report('redis', error);
  });
  redis.on('ready', () => {
    reported = false;
  });
  await redis.connect().catch(() => {});
  return redis;
}
