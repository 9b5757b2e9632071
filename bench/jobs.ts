/**
 * `npm run bench -- jobs [--json] [--rows N]`: a job of N (default 5,000,000) cards transactions to CSV
 * and one to NDJSON, each timed end to end in the service (create → succeeded: reservation, plan,
 * claim, pool, file with SHA-256, rename, settlement), next to the pool alone generating the same table
 * of the same plan (the generation benchmark's pool rows/s, measured here on the same machine and run).
 * The service's resident memory is sampled every 50 ms while the jobs run: the rows are streamed to
 * the file, so it must stay flat (target < 512 MB) whatever N.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { BenchOptions } from './index.js';
import { loadConfig } from '../core/config.js';
import { createServices, type Services } from '../core/services.js';
import { createAccount } from '../core/accounts/create-account.js';

export interface JobsFigures {
  rows: number;
  csv_rows_per_s: number;
  ndjson_rows_per_s: number;
  pool_rows_per_s: number;
  peak_rss_mb: number;
}

const TABLE = 'transactions';
const SEED = 20_261_122;

function rowsArgument(args: string[]): number {
  const index = args.indexOf('--rows');
  const rows = index === -1 ? 5_000_000 : Number(args[index + 1]);
  if (!Number.isInteger(rows) || rows < 1) throw new Error('--rows takes a positive integer');
  return rows;
}

/** The pool alone: the same plan's table generated and dropped, as the generation benchmark measures it. */
async function poolRowsPerSecond(services: Services, rows: number, format: 'csv' | 'ndjson'): Promise<number> {
  const plan = await services.pool.plan({ sector: 'cards', seed: SEED, tables: [{ name: TABLE, rows }] });
  const started = performance.now();
  for await (const _bytes of services.pool.generate(plan, TABLE, { format }));
  return rows / ((performance.now() - started) / 1000);
}

/** Create → succeeded, as a client would see it, through the jobs service and the instance's runner. */
async function jobRowsPerSecond(services: Services, accountId: string, keyId: string, rows: number, format: 'csv' | 'ndjson'): Promise<number> {
  const owner = { accountId, mode: 'live' as const };
  const config = { version: 1, sector: 'cards', seed: SEED, tables: [{ name: TABLE, rows }], output: { format } };
  const started = performance.now();
  const job = await services.jobs.create({ ...owner, keyId, input: { config } });
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    await services.projections.waitFor(await services.store.headPosition());
    const { state, failure } = services.jobs.get(owner, job.id);
    if (state === 'succeeded') break;
    if (state !== 'queued' && state !== 'running') throw new Error(`the ${format} job ended ${state}: ${failure?.detail ?? ''}`);
  }
  return rows / ((performance.now() - started) / 1000);
}

export async function run({ json, args }: BenchOptions): Promise<JobsFigures> {
  const rows = rowsArgument(args);
  const say = (line: string) => (json ? console.error(line) : console.log(line));
  const dataDir = mkdtempSync(join(tmpdir(), 'finsynth-bench-jobs-'));
  const services = await createServices(loadConfig({}, { dataDir, logLevel: 'silent' }));
  try {
    const account = await createAccount(services, { tier: 'scale', credits: Math.ceil(rows / 1000) * 10 });
    // Jobs are created in-process, not over HTTP: no key authenticates them; the id only labels the events.
    const keyId = 'bench';
    say(`cards.${TABLE}, ${rows.toLocaleString('en')} rows, pool of ${services.pool.size} workers`);

    await poolRowsPerSecond(services, 50_000, 'csv'); // warms the workers up: neither figure pays for their start
    // The jobs run first, so that the memory sampled is the service's own: the pool-alone runs below
    // leave gigabytes of freed chunk buffers that the process keeps without needing them.
    const before = Math.round(process.memoryUsage.rss() / 1_048_576);
    let peak = 0;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 50);
    const csv = await jobRowsPerSecond(services, account.account_id, keyId, rows, 'csv');
    const ndjson = await jobRowsPerSecond(services, account.account_id, keyId, rows, 'ndjson');
    clearInterval(sampler);
    const peakMb = Math.round(peak / 1_048_576);

    const poolCsv = await poolRowsPerSecond(services, rows, 'csv');
    const poolNdjson = await poolRowsPerSecond(services, rows, 'ndjson');
    say(`pool alone:  csv ${Math.round(poolCsv).toLocaleString('en')} rows/s, ndjson ${Math.round(poolNdjson).toLocaleString('en')} rows/s`);
    say(`job, end to end: csv ${Math.round(csv).toLocaleString('en')} rows/s (${pct(csv, poolCsv)} of the pool), ndjson ${Math.round(ndjson).toLocaleString('en')} rows/s (${pct(ndjson, poolNdjson)} of the pool)`);
    say(`RSS: ${before} MB before the jobs (service and warm pool), peak ${peakMb} MB while they ran (target < 512 MB)`);
    return { rows, csv_rows_per_s: Math.round(csv), ndjson_rows_per_s: Math.round(ndjson), pool_rows_per_s: Math.round(poolNdjson), peak_rss_mb: peakMb };
  } finally {
    await services.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const pct = (part: number, whole: number): string => `${Math.round((100 * part) / whole)}%`;
