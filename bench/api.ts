/**
 * `npm run bench -- api [--json] [--duration S]`: requests per second and latency, driven by autocannon after a
 * warm-up, of a bare Koa app (the ceiling of this machine and Node.js), GET /healthz, GET /v1/catalog and
 * GET /v1/keys with a key, then the quick-generation scenario of bench/_quick.ts. The tiers' rates are lifted, so
 * that the limiter runs on every request but refuses none. The load average is reported with the figures, since
 * other processes move them. Targets and latest figures: docs/performance.md.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import Koa from 'koa';
import autocannon from 'autocannon';
import { pino } from 'pino';
import type { BenchOptions } from './index.js';
import { loadConfig } from '../core/settings/settings.js';
import { loadPricing, type Pricing } from '../core/pricing/pricing.js';
import { createServices } from '../core/services/services.js';
import { createAccount } from '../core/accounts/create-account.js';
import { createApp } from '../api/app.js';
import { listen, type RunningServer } from '../api/server.js';

const CONNECTIONS = 50;
const QUICK_KEYS = 4;

interface Measured {
  rps: number;
  p50_ms: number;
  p99_ms: number;
}

/** Each target is first driven for a warm-up that is not counted: the JIT has compiled its path when measured. */
const WARM_UP_SECONDS = 2;

async function measure(url: string, durationSeconds: number, headers: Record<string, string> = {}): Promise<Measured> {
  await autocannon({ url, connections: CONNECTIONS, duration: WARM_UP_SECONDS, headers });
  const result = await autocannon({ url, connections: CONNECTIONS, duration: durationSeconds, headers });
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(
      `${url}: ${result.non2xx} non-2xx answers and ${result.errors} errors in ${result.requests.total} requests`,
    );
  }
  return { rps: Math.round(result.requests.average), p50_ms: result.latency.p50, p99_ms: result.latency.p99 };
}

async function bareKoa(): Promise<{ url: string; close(): Promise<void> }> {
  const app = new Koa();
  app.use((ctx) => {
    ctx.body = {};
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}/`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** The pricing file with every tier's rate lifted far above what one machine can send. */
function unthrottled(pricing: Pricing): Pricing {
  const tiers = Object.fromEntries(
    Object.entries(pricing.tiers).map(([tier, price]) => [tier, { ...price, rate_limit_per_s: 10_000_000 }]),
  );
  return { ...pricing, tiers: tiers as Pricing['tiers'] };
}

export async function run({ json, args }: BenchOptions): Promise<Record<string, number>> {
  const durationIndex = args.indexOf('--duration');
  const duration = durationIndex === -1 ? 10 : Number(args[durationIndex + 1]);
  const log = (line: string) => process.stderr.write(`${line}\n`);

  const bare = await bareKoa();
  log(`bare Koa: ${duration} s at ${CONNECTIONS} connections…`);
  const bareFigures = await measure(bare.url, duration);
  await bare.close();

  const dataDir = await mkdtemp(join(tmpdir(), 'finsynth-bench-api-'));
  const config = loadConfig({}, { dataDir, port: 0, logLevel: 'info' });
  const services = await createServices(config, { pricing: unthrottled(loadPricing()) });
  const logger = pino(
    { level: 'info' },
    pino.destination({ dest: join(dataDir, 'access.log'), sync: false, mkdir: true }),
  );
  let server: RunningServer | undefined;
  try {
    server = await listen(createApp(services, { logger }), 0);
    const accounts = await Promise.all(
      Array.from({ length: QUICK_KEYS }, () => createAccount(services, { tier: 'scale' })),
    );
    await services.projections.waitFor(Math.max(...accounts.map((account) => account.position)));
    const authorization = `Bearer ${accounts[0]!.keys.live}`;

    log(`GET /healthz: ${duration} s…`);
    const healthz = await measure(`${server.url}/healthz`, duration);
    log(`GET /v1/catalog with a key: ${duration} s…`);
    const catalog = await measure(`${server.url}/v1/catalog`, duration, { authorization });
    log(`GET /v1/keys with a key: ${duration} s…`);
    const keys = await measure(`${server.url}/v1/keys`, duration, { authorization });

    const figures: Record<string, number> = {
      bare_koa_rps: bareFigures.rps,
      healthz_rps: healthz.rps,
      catalog_rps: catalog.rps,
      catalog_p50_ms: catalog.p50_ms,
      catalog_p99_ms: catalog.p99_ms,
      keys_rps: keys.rps,
      keys_p99_ms: keys.p99_ms,
    };
    if (existsSync(new URL('./_quick.ts', import.meta.url))) {
      log('quick generation scenario (bench/_quick.ts)…');
      const { quickScenario } = await import('./_quick.js');
      // A failing scenario (the route not served yet) leaves its figures out; the API's stand.
      await quickScenario({
        url: server.url,
        keys: accounts.map((account) => account.keys.test),
        durationSeconds: duration,
      }).then(
        (quick) => Object.assign(figures, quick),
        (error: Error) => log(`quick generation scenario failed: ${error.message}`),
      );
    }
    figures.load_average_1m = Math.round(loadavg()[0] * 100) / 100;
    if (!json) report(figures);
    return figures;
  } finally {
    await server?.close(1000);
    await services.close();
    logger.flush();
    await rm(dataDir, { recursive: true, force: true });
  }
}

function report(figures: Record<string, number>): void {
  const share = Math.round((figures.catalog_rps! / figures.bare_koa_rps!) * 100);
  console.log(`bare Koa {}            ${figures.bare_koa_rps} req/s`);
  console.log(`GET /healthz           ${figures.healthz_rps} req/s`);
  console.log(
    `GET /v1/catalog (key)  ${figures.catalog_rps} req/s (${share}% of bare Koa; target ≥ 60%), ` +
      `p50 ${figures.catalog_p50_ms} ms, p99 ${figures.catalog_p99_ms} ms (target < 20)`,
  );
  console.log(
    `GET /v1/keys (key)     ${figures.keys_rps} req/s ` +
      `(${Math.round((figures.keys_rps! / figures.bare_koa_rps!) * 100)}% of bare Koa), ` +
      `p99 ${figures.keys_p99_ms} ms`,
  );
  if (figures.quick_rps !== undefined) {
    console.log(
      `POST /v1/generate/quick 1,000 rows: ${figures.quick_rps} req/s, ` +
        `p50 ${figures.quick_p50_ms} ms, p99 ${figures.quick_p99_ms} ms (target < 100)`,
    );
  }
  console.log(`load average (1 min) at the end: ${figures.load_average_1m}`);
}
