import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';

/**
 * Everything the service reads from its environment, read in one place. Operators set these; the
 * README lists them. Command-line flags (--port, --data) override the matching variables.
 */
export interface Config {
  port: number;
  dataDir: string;
  postgresUrl: string | undefined;
  kurrentdbUrl: string | undefined;
  redisUrl: string | undefined;
  /** The `svc` of `svc_live_…` keys: the service's short name. */
  keyPrefix: string;
  /** Problem `type` URIs are `${errorTypeBase}/<slug>`. */
  errorTypeBase: string;
  /** Worker threads of the generation pool. */
  poolSize: number;
  /** Third-party sector packs: directories or npm package names, comma-separated. */
  packs: string[];
  /** Where job results are written; shared by all instances of a fleet. */
  resultsDir: string;
  /** How long a succeeded job's result files are kept before they are removed (with an event). */
  resultsRetentionMs: number;
  /** A runner that has not renewed a job's lease for this long is presumed dead; another takes the job over. */
  jobLeaseMs: number;
  /** Jobs one instance runs at once (they share its generation pool). */
  jobsPerInstance: number;
  logLevel: string;
  /**
   * Follow each connection's chunked framing, so that a body announcing more than its limit is refused as
   * soon as the size is read; it costs every request (their bytes pass through JavaScript), so it is off.
   */
  readChunkSizes: boolean;
  /** The key every webhook endpoint's signing secret is derived from; every instance of a fleet must share it. */
  webhookSigningKeyFile: string;
  /** Let webhooks go to loopback, RFC 1918, CGNAT and unique-local addresses (receivers on the operator's network). */
  webhooksAllowPrivateNetworks: boolean;
  /**
   * One delivery attempt, DNS to the answer's status, is cut at this. This and the retry schedule below are
   * not read from the environment: their defaults are what docs/webhooks.md promises; tests shorten them.
   */
  webhookTimeoutMs: number;
  /** The first retry of a failed delivery waits this long, each next one twice as long, up to the maximum. */
  webhookRetryFirstMs: number;
  webhookRetryMaxMs: number;
  /** A delivery not made within this long after it was scheduled has failed. */
  webhookRetryForMs: number;
  /** Delivery attempts one instance makes at once. */
  webhookDeliveriesAtOnce: number;
  /** The Ed25519 key that signs the audit log's checkpoints: a file outside the store, 0600, made at first start. */
  auditKeyFile: string;
  /** The audit log's origin (its checkpoints' first line, its key's name); unset: the key file's, or this host's. */
  auditOrigin: string | undefined;
  /** While events arrive, a checkpoint is signed at most this often. */
  auditCheckpointIntervalMs: number;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const setting = settingsOf(env);
  const dataDir = resolve(overrides.dataDir ?? setting('FINSYNTH_DATA_DIR') ?? './data');
  const config: Config = {
    port: Number(setting('PORT') ?? 3000),
    dataDir,
    postgresUrl: setting('FINSYNTH_POSTGRES_URL'),
    kurrentdbUrl: setting('FINSYNTH_KURRENTDB_URL'),
    redisUrl: setting('FINSYNTH_REDIS_URL'),
    keyPrefix: setting('FINSYNTH_KEY_PREFIX') ?? 'svc',
    errorTypeBase: (setting('FINSYNTH_ERROR_TYPE_BASE') ?? 'https://errors.finsynth.dev').replace(/\/+$/, ''),
    poolSize: Number(setting('FINSYNTH_POOL_SIZE') ?? availableParallelism()),
    packs: (setting('FINSYNTH_PACKS') ?? '')
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean),
    resultsDir: resolve(setting('FINSYNTH_RESULTS_DIR') ?? resolve(dataDir, 'results')),
    resultsRetentionMs: Number(setting('FINSYNTH_RESULTS_RETENTION_HOURS') ?? 24 * 7) * 3_600_000,
    jobLeaseMs: Number(setting('FINSYNTH_JOB_LEASE_MS') ?? 15_000),
    jobsPerInstance: Number(setting('FINSYNTH_JOBS_PER_INSTANCE') ?? 2),
    logLevel: setting('FINSYNTH_LOG_LEVEL') ?? 'info',
    readChunkSizes: flag(setting('FINSYNTH_READ_CHUNK_SIZES'), 'FINSYNTH_READ_CHUNK_SIZES'),
    webhookSigningKeyFile: resolve(
      setting('FINSYNTH_WEBHOOK_SIGNING_KEY_FILE') ?? resolve(dataDir, 'webhook-signing.key'),
    ),
    webhooksAllowPrivateNetworks: flag(
      setting('FINSYNTH_WEBHOOKS_ALLOW_PRIVATE_NETWORKS'),
      'FINSYNTH_WEBHOOKS_ALLOW_PRIVATE_NETWORKS',
    ),
    webhookTimeoutMs: 10_000,
    webhookRetryFirstMs: 30_000,
    webhookRetryMaxMs: 3_600_000,
    webhookRetryForMs: 24 * 3_600_000,
    webhookDeliveriesAtOnce: 8,
    auditKeyFile: resolve(setting('FINSYNTH_AUDIT_KEY') ?? resolve(dataDir, 'audit-signing.key')),
    auditOrigin: setting('FINSYNTH_AUDIT_ORIGIN'),
    auditCheckpointIntervalMs: Number(setting('FINSYNTH_AUDIT_CHECKPOINT_INTERVAL_MS') ?? 2_000),
    ...overrides,
  };
  checkConfig(config);
  return config;
}

/**
 * A variable set to nothing (`PORT=` in an env file or a compose file, the usual way to clear one) is
 * unset: its default holds. Read as a value, an empty PORT would serve on a random port and an empty
 * data directory would put the store in the working directory.
 */
function settingsOf(env: NodeJS.ProcessEnv): (name: string) => string | undefined {
  return (name) => {
    const value = env[name]?.trim();
    return value ? value : undefined;
  };
}

/** A yes-or-no variable: `true` or `1`, `false` or `0`; unset is no. */
function flag(value: string | undefined, variable: string): boolean {
  if (value === undefined || value === 'false' || value === '0') return false;
  if (value === 'true' || value === '1') return true;
  throw new Error(`${variable} must be true, false, 1 or 0`);
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** A mistyped variable stops the service at start, naming it, rather than serving on port NaN. */
function checkConfig(config: Config): void {
  const wholeNumber = (value: number, variable: string, min: number, max = Number.MAX_SAFE_INTEGER) => {
    if (!Number.isInteger(value) || value < min || value > max)
      throw new Error(`${variable} must be a whole number from ${min} to ${max}`);
  };
  wholeNumber(config.port, 'PORT', 0, 65535);
  wholeNumber(config.poolSize, 'FINSYNTH_POOL_SIZE', 1, 1024);
  wholeNumber(config.resultsRetentionMs, 'FINSYNTH_RESULTS_RETENTION_HOURS', 0);
  wholeNumber(config.jobLeaseMs, 'FINSYNTH_JOB_LEASE_MS', 1);
  wholeNumber(config.jobsPerInstance, 'FINSYNTH_JOBS_PER_INSTANCE', 0, 1024);
  for (const [value, name] of [
    [config.webhookTimeoutMs, 'webhookTimeoutMs'],
    [config.webhookRetryFirstMs, 'webhookRetryFirstMs'],
    [config.webhookRetryMaxMs, 'webhookRetryMaxMs'],
    [config.webhookRetryForMs, 'webhookRetryForMs'],
    [config.webhookDeliveriesAtOnce, 'webhookDeliveriesAtOnce'],
  ] as const)
    wholeNumber(value, name, 1);
  wholeNumber(config.auditCheckpointIntervalMs, 'FINSYNTH_AUDIT_CHECKPOINT_INTERVAL_MS', 1, 3_600_000);
  if (config.auditOrigin !== undefined && /[\s+]/u.test(config.auditOrigin))
    throw new Error('FINSYNTH_AUDIT_ORIGIN must hold no space and no plus sign (e.g. finsynth.example.com/audit)');
  if (!/^[a-z][a-z0-9]{0,15}$/.test(config.keyPrefix))
    throw new Error('FINSYNTH_KEY_PREFIX must be 1 to 16 lowercase letters and digits, starting with a letter');
  if (!URL.canParse(config.errorTypeBase)) throw new Error('FINSYNTH_ERROR_TYPE_BASE must be an absolute URI');
  if (!LOG_LEVELS.includes(config.logLevel))
    throw new Error(`FINSYNTH_LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);
}
