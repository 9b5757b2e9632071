/**
 * `npm run bench -- jobs [--json] [--rows N]`: a job of N (default 5,000,000) cards transactions to CSV
 * and one to NDJSON, each timed end to end in the service (create → succeeded: reservation, plan,
 * claim, pool, file with SHA-256, rename, settlement), next to the pool alone generating the same table
 * of the same plan (the generation benchmark's pool rows/s, measured here on the same machine and run).
 * The service's resident memory is sampled every 50 ms while the jobs run: the rows are streamed to
 * the file, so it must stay flat (target < 512 MB) whatever N. The CPU time each run spends per row is
 * reported beside its wall time: on a shared machine it is the steadier figure.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
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
  cpu_s_per_million: { pool_csv: number; pool_ndjson: number; job_csv: number; job_ndjson: number };
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

/** Wall and CPU time of a run of `rows` rows. */
interface Timing {
  rows_per_s: number;
  /** CPU seconds of the whole process (main thread and workers) per 1,000,000 rows: the work done, which other processes' load moves much less than the wall time. */
  cpu_s_per_million: number;
}

async function timed(rows: number, work: () => Promise<void>): Promise<Timing> {
  const started = performance.now();
  const cpu = process.cpuUsage();
  await work();
  const { user, system } = process.cpuUsage(cpu);
  return { rows_per_s: rows / ((performance.now() - started) / 1000), cpu_s_per_million: (user + system) / rows };
}

/** The pool alone: the same plan's table generated and dropped (buffers recycled), as the generation benchmark measures it. */
async function poolAlone(services: Services, rows: number, format: 'csv' | 'ndjson'): Promise<Timing> {
  const plan = await services.pool.plan({ sector: 'cards', seed: SEED, tables: [{ name: TABLE, rows }] });
  return timed(rows, async () => {
    for await (const _bytes of services.pool.generate(plan, TABLE, { format, recycle: true }));
  });
}

/** Create → succeeded, as a client would see it, through the jobs service and the instance's runner. */
async function job(services: Services, accountId: string, keyId: string, rows: number, format: 'csv' | 'ndjson'): Promise<Timing> {
  const owner = { accountId, mode: 'live' as const };
  const config = { version: 1, sector: 'cards', seed: SEED, tables: [{ name: TABLE, rows }], output: { format } };
  return timed(rows, async () => {
    const created = await services.jobs.create({ ...owner, keyId, input: { config } });
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      await services.projections.waitFor(await services.store.headPosition());
      const { state, failure } = services.jobs.get(owner, created.id);
      if (state === 'succeeded') return;
      if (state !== 'queued' && state !== 'running') throw new Error(`the ${format} job ended ${state}: ${failure?.detail ?? ''}`);
    }
  });
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
    // Other processes' load moves every figure here: the load average is reported with them.
    const loadAtStart = loadavg()[0];

    await poolAlone(services, 50_000, 'csv'); // warms the workers up: neither figure pays for their start
    // The jobs run first, so that the memory sampled is the service's own: the pool-alone runs below
    // leave gigabytes of freed chunk buffers that the process keeps without needing them.
    const before = Math.round(process.memoryUsage.rss() / 1_048_576);
    let peak = 0;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 50);
    const csv = await job(services, account.account_id, keyId, rows, 'csv');
    const ndjson = await job(services, account.account_id, keyId, rows, 'ndjson');
    clearInterval(sampler);
    const peakMb = Math.round(peak / 1_048_576);

    const poolCsv = await poolAlone(services, rows, 'csv');
    const poolNdjson = await poolAlone(services, rows, 'ndjson');
    say(`pool alone:  csv ${perSecond(poolCsv)}, ndjson ${perSecond(poolNdjson)}`);
    say(`job, end to end: csv ${perSecond(csv)} (${pct(csv.rows_per_s, poolCsv.rows_per_s)} of the pool), ndjson ${perSecond(ndjson)} (${pct(ndjson.rows_per_s, poolNdjson.rows_per_s)} of the pool)`);
    // On a machine shared with other work the wall-time shares swing by a third between runs; the CPU
    // spent per row does not, and the pool's over the job's is the share the job would get on idle cores.
    say(
      `CPU s per 1,000,000 rows (all threads): pool csv ${poolCsv.cpu_s_per_million.toFixed(2)}, ndjson ${poolNdjson.cpu_s_per_million.toFixed(2)}; ` +
        `job csv ${csv.cpu_s_per_million.toFixed(2)} (pool/job ${pct(poolCsv.cpu_s_per_million, csv.cpu_s_per_million)}), ndjson ${ndjson.cpu_s_per_million.toFixed(2)} (pool/job ${pct(poolNdjson.cpu_s_per_million, ndjson.cpu_s_per_million)})`,
    );
    say(`RSS: ${before} MB before the jobs (service and warm pool), peak ${peakMb} MB while they ran (target < 512 MB)`);
    say(`load average (1 min): ${loadAtStart.toFixed(1)} at the start, ${loadavg()[0].toFixed(1)} at the end`);
    return {
      rows,
      csv_rows_per_s: Math.round(csv.rows_per_s),
      ndjson_rows_per_s: Math.round(ndjson.rows_per_s),
      pool_rows_per_s: Math.round(poolNdjson.rows_per_s),
      cpu_s_per_million: { pool_csv: poolCsv.cpu_s_per_million, pool_ndjson: poolNdjson.cpu_s_per_million, job_csv: csv.cpu_s_per_million, job_ndjson: ndjson.cpu_s_per_million },
      peak_rss_mb: peakMb,
    };
  } finally {
    await services.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const pct = (part: number, whole: number): string => `${Math.round((100 * part) / whole)}%`;
const perSecond = (timing: Timing): string => `${Math.round(timing.rows_per_s).toLocaleString('en')} rows/s`;
