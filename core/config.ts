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
  logLevel: string;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const dataDir = resolve(overrides.dataDir ?? env.FINSYNTH_DATA_DIR ?? './data');
  return {
    port: Number(env.PORT ?? 3000),
    dataDir,
    postgresUrl: env.FINSYNTH_POSTGRES_URL || undefined,
    kurrentdbUrl: env.FINSYNTH_KURRENTDB_URL || undefined,
    redisUrl: env.FINSYNTH_REDIS_URL || undefined,
    keyPrefix: env.FINSYNTH_KEY_PREFIX ?? 'svc',
    errorTypeBase: (env.FINSYNTH_ERROR_TYPE_BASE ?? 'https://errors.finsynth.dev').replace(/\/+$/, ''),
    poolSize: Number(env.FINSYNTH_POOL_SIZE ?? availableParallelism()),
    packs: (env.FINSYNTH_PACKS ?? '').split(',').map((entry) => entry.trim()).filter(Boolean),
    resultsDir: resolve(env.FINSYNTH_RESULTS_DIR ?? resolve(dataDir, 'results')),
    logLevel: env.FINSYNTH_LOG_LEVEL ?? 'info',
    ...overrides,
  };
}
