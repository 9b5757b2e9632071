/**
 * `npm run bench -- jobs [--json] [--rows N] [--repeat R]`: a CSV, an NDJSON and a Parquet (snappy) job of N cards
 * transactions, each timed end to end in the service (create → succeeded), next to the pool alone on the same plan;
 * each figure is the best of R interleaved rounds. The Parquet file's size is set beside the gzip CSV of the same
 * rows (one more job, untimed). The service's resident memory is sampled while the jobs run (rows are streamed, so
 * it must stay flat whatever N), and the CPU time per row is reported, steadier than wall time on a shared machine.
 * The conformance report's cost (target ≤ 15 % of the job's time): the CSV job with its report against the CSV job
 * without, and, stricter, the pool's CSV of the same plan with and without the workers' statistics; each the median
 * of R pairs run back to back, since the best of each apart compared moments of the machine, not the two runs.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { BenchOptions } from './index.js';
import { loadConfig } from '../core/settings/settings.js';
import { createServices, type Services } from '../core/services/services.js';
import { createAccount } from '../core/accounts/create-account.js';
import { removeJobDirectory } from '../core/jobs/result-files.js';
import { ReportCollector } from '../core/reports/report-collector.js';

export interface JobsFigures {
  rows: number;
  csv_rows_per_s: number;
  ndjson_rows_per_s: number;
  parquet_rows_per_s: number;
  pool_rows_per_s: number;
  cpu_s_per_million: {
    pool_csv: number;
    pool_ndjson: number;
    job_csv: number;
    job_ndjson: number;
    job_parquet: number;
  };
  peak_rss_mb: number;
  /** The Parquet (snappy) file's size and the gzip CSV file's, of the same rows. */
  parquet_bytes: number;
  parquet_zstd_bytes: number;
  csv_gzip_bytes: number;
  /**
   * What the report adds to the CSV job of the same rows, end to end: wall time and CPU, as shares, each the median
   * of the rounds' pairs (the two jobs back to back).
   */
  report_job_time_share: number;
  report_job_cpu_share: number;
  /** What the report's statistics add to the pool's CSV of the same rows: wall time and CPU, as median shares. */
  report_time_share: number;
  report_cpu_share: number;
}

const TABLE = 'transactions';
const SEED = 20_261_122;

function positiveArgument(args: string[], name: string, fallback: number): number {
  const index = args.indexOf(name);
  const value = index === -1 ? fallback : Number(args[index + 1]);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} takes a positive integer`);
  return value;
}

/** Wall and CPU time of a run of `rows` rows. */
interface Timing {
  rows_per_s: number;
  /**
   * CPU seconds of the whole process (main thread and workers) per 1,000,000 rows: the work done, which other
   * processes' load moves much less than the wall time.
   */
  cpu_s_per_million: number;
}

async function timed(rows: number, work: () => Promise<void>): Promise<Timing> {
  const started = performance.now();
  const cpu = process.cpuUsage();
  await work();
  const { user, system } = process.cpuUsage(cpu);
  return { rows_per_s: rows / ((performance.now() - started) / 1000), cpu_s_per_million: (user + system) / rows };
}

/** The pool alone: the same plan's table generated and dropped (buffers recycled), as the generation bench does. */
async function poolAlone(services: Services, rows: number, format: 'csv' | 'ndjson', report = false): Promise<Timing> {
  const plan = await services.pool.plan({ sector: 'cards', seed: SEED, tables: [{ name: TABLE, rows }] });
  return timed(rows, async () => {
    // With the report: the workers gather each chunk's statistics and the main thread merges them and makes it.
    const collector = report ? new ReportCollector(plan) : undefined;
    const statistics = collector?.statisticsFor(TABLE);
    for await (const _bytes of services.pool.generate(plan, TABLE, { format, recycle: true, statistics }));
    collector?.report();
  });
}

/** Create → succeeded, as a client would see it, through the jobs service and the instance's runner. */
async function job(
  services: Services,
  accountId: string,
  keyId: string,
  rows: number,
  format: JobFormat,
  { compression, report = false }: { compression?: 'gzip' | 'zstd'; report?: boolean } = {},
): Promise<{ timing: Timing; jobId: string; bytes: number }> {
  const owner = { accountId, mode: 'live' as const };
  // The one table measured: its referenced tables are not delivered, so that rows/s is of that table alone.
  const output = { format, referenced_tables: 'omit' as const, report, ...(compression ? { compression } : {}) };
  const config = { version: 1, sector: 'cards', seed: SEED, tables: [{ name: TABLE, rows }], output };
  let jobId = '';
  let bytes = 0;
  const timing = await timed(rows, async () => {
    const created = await services.jobs.create({ ...owner, keyId, input: { config } });
    jobId = created.id;
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      await services.projections.waitForHead();
      const { state, failure, files } = services.jobs.get(owner, created.id);
      if (state === 'succeeded') {
        bytes = files.reduce((sum, file) => sum + file.bytes, 0);
        return;
      }
      if (state !== 'queued' && state !== 'running')
        throw new Error(`the ${format} job ended ${state}: ${failure?.detail ?? ''}`);
    }
  });
  return { timing, jobId, bytes };
}

export async function run({ json, args }: BenchOptions): Promise<JobsFigures> {
  const rows = positiveArgument(args, '--rows', 5_000_000);
  const repeat = positiveArgument(args, '--repeat', 3);
  const say = (line: string) => (json ? console.error(line) : console.log(line));
  const dataDir = mkdtempSync(join(tmpdir(), 'finsynth-bench-jobs-'));
  const config = loadConfig({}, { dataDir, logLevel: 'silent' });
  const services = await createServices(config);
  try {
    const account = await createAccount(services, {
      tier: 'scale',
      credits: Math.ceil(rows / 1000) * 10 * (repeat + 1),
    });
    // Jobs are created in-process, not over HTTP: no key authenticates them; the id only labels the events.
    const keyId = 'bench';
    say(
      `cards.${TABLE}, ${rows.toLocaleString('en')} rows, ` +
        `pool of ${services.pool.size} workers, best of ${repeat} interleaved rounds`,
    );
    // Other processes' load moves every figure here: the load average is reported with them.
    const loadAtStart = loadavg()[0];

    await poolAlone(services, 50_000, 'csv'); // warms the workers up: neither figure pays for their start
    const before = Math.round(process.memoryUsage.rss() / 1_048_576);
    let peak = 0;
    const best: Record<Run, Timing | undefined> = {
      job_csv: undefined,
      job_ndjson: undefined,
      job_parquet: undefined,
      pool_csv: undefined,
      pool_ndjson: undefined,
      pool_csv_report: undefined,
      job_csv_report: undefined,
    };
    const firstRound: Partial<Record<Run, Timing>> = {};
    let parquetBytes = 0;
    // The report's cost is measured in pairs: the run with the report and the run without, back to back, the one or
    // the other first in turn, so that a pair shares the machine's moment; the median pair is the figure.
    const pairs: { job: ReportShare[]; pool: ReportShare[] } = { job: [], pool: [] };
    const reportFirst = (round: number) => round % 2 === 1;
    // Memory is sampled while jobs run only: the service's own, not the pool-alone runs' dropped chunks.
    const sampled = async <T>(work: () => Promise<T>): Promise<T> => {
      const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 50);
      try {
        return await work();
      } finally {
        clearInterval(sampler);
      }
    };
    for (let round = 0; round < repeat; round++) {
      const csvWithReport = async (): Promise<Timing> => {
        const { timing, jobId } = await sampled(() =>
          job(services, account.account_id, keyId, rows, 'csv', { report: true }),
        );
        await removeJobDirectory(config.resultsDir, jobId);
        record(best, firstRound, 'job_csv_report', timing);
        return timing;
      };
      for (const format of JOB_FORMATS) {
        const withReport = format === 'csv' && reportFirst(round) ? await csvWithReport() : undefined;
        const { timing, jobId, bytes } = await sampled(() => job(services, account.account_id, keyId, rows, format));
        if (format === 'parquet') parquetBytes = bytes;
        // The file was written, flushed and hashed: that is the work measured. Removed, so that the
        // rounds do not pile up gigabytes on the disk.
        await removeJobDirectory(config.resultsDir, jobId);
        record(best, firstRound, `job_${format}`, timing);
        if (format === 'csv') pairs.job.push(reportShare(timing, withReport ?? (await csvWithReport())));
      }
      const poolWithReport = reportFirst(round) ? await poolAlone(services, rows, 'csv', true) : undefined;
      const poolCsvRound = await poolAlone(services, rows, 'csv');
      record(best, firstRound, 'pool_csv', poolCsvRound);
      const poolReportRound = poolWithReport ?? (await poolAlone(services, rows, 'csv', true));
      record(best, firstRound, 'pool_csv_report', poolReportRound);
      pairs.pool.push(reportShare(poolCsvRound, poolReportRound));
      record(best, firstRound, 'pool_ndjson', await poolAlone(services, rows, 'ndjson'));
    }
    const peakMb = Math.round(peak / 1_048_576);
    const [jobCsv, jobNdjson, jobParquet, poolCsv, poolNdjson, poolCsvReport, jobCsvReport] = RUNS.map(
      (name) => best[name] as Timing,
    );
    const reportJob = medianShare(pairs.job);
    const reportPool = medianShare(pairs.pool);
    // The size Parquet is held to: gzip CSV of the same rows (the same plan, so the same rows).
    const gzipCsv = await job(services, account.account_id, keyId, rows, 'csv', { compression: 'gzip' });
    await removeJobDirectory(config.resultsDir, gzipCsv.jobId);
    // snappy cannot entropy-code the random hex of keys, which gzip halves: zstd's size is shown beside it.
    const zstdParquet = await job(services, account.account_id, keyId, rows, 'parquet', { compression: 'zstd' });
    await removeJobDirectory(config.resultsDir, zstdParquet.jobId);

    say(`pool alone:  csv ${perSecond(poolCsv)}, ndjson ${perSecond(poolNdjson)}`);
    say(
      `report: csv job with its report ${perSecond(jobCsvReport)}, ${cpu(jobCsvReport)} CPU s per 1,000,000 rows ` +
        `(best); median of ${repeat} pairs with the job without: ${shares(reportJob, pairs.job)} (target ≤ 15%); ` +
        `pool csv with statistics ${perSecond(poolCsvReport)} (best), median pair: ${shares(reportPool, pairs.pool)}`,
    );
    say(
      `job, end to end: csv ${perSecond(jobCsv)} (${pct(jobCsv.rows_per_s, poolNdjson.rows_per_s)} ` +
        `of the pool's ndjson, ${pct(jobCsv.rows_per_s, poolCsv.rows_per_s)} of its csv), ` +
        `ndjson ${perSecond(jobNdjson)} (${pct(jobNdjson.rows_per_s, poolNdjson.rows_per_s)} of the pool)`,
    );
    say(
      `job, parquet (snappy): ${perSecond(jobParquet)} (${pct(jobParquet.rows_per_s, jobCsv.rows_per_s)} of the csv ` +
        `job's; target ≥ 60%), ${cpu(jobParquet)} CPU s per 1,000,000 rows; file ${mb(parquetBytes)} against ` +
        `${mb(gzipCsv.bytes)} of gzip csv (${pct(parquetBytes, gzipCsv.bytes)}; target < 100%); zstd: ` +
        `${mb(zstdParquet.bytes)} (${pct(zstdParquet.bytes, gzipCsv.bytes)})`,
    );
    // On a machine shared with other work the wall-time shares swing between runs; the CPU spent per row does
    // not, and the pool's over the job's is the share the job would get on idle cores.
    say(
      `CPU s per 1,000,000 rows (all threads): pool csv ${cpu(poolCsv)}, ndjson ${cpu(poolNdjson)}; ` +
        `job csv ${cpu(jobCsv)} (pool/job ${pct(poolCsv.cpu_s_per_million, jobCsv.cpu_s_per_million)}), ` +
        `ndjson ${cpu(jobNdjson)} (pool/job ${pct(poolNdjson.cpu_s_per_million, jobNdjson.cpu_s_per_million)})`,
    );
    if (repeat > 1) {
      // The first round is the one a service just started gives (its first buffers and staging memory
      // are new to the process, and on a virtual machine to its host): shown, not hidden by the best.
      const first = (name: Run) => `${perSecond(firstRound[name] as Timing)}, ${cpu(firstRound[name] as Timing)} CPU s`;
      say(`first round alone: job csv ${first('job_csv')}; job ndjson ${first('job_ndjson')}`);
    }
    say(
      `RSS: ${before} MB before the jobs (service and warm pool), peak ${peakMb} MB while they ran (target < 512 MB)`,
    );
    say(`load average (1 min): ${loadAtStart.toFixed(1)} at the start, ${loadavg()[0].toFixed(1)} at the end`);
    return {
      rows,
      csv_rows_per_s: Math.round(jobCsv.rows_per_s),
      ndjson_rows_per_s: Math.round(jobNdjson.rows_per_s),
      parquet_rows_per_s: Math.round(jobParquet.rows_per_s),
      pool_rows_per_s: Math.round(poolNdjson.rows_per_s),
      cpu_s_per_million: {
        pool_csv: poolCsv.cpu_s_per_million,
        pool_ndjson: poolNdjson.cpu_s_per_million,
        job_csv: jobCsv.cpu_s_per_million,
        job_ndjson: jobNdjson.cpu_s_per_million,
        job_parquet: jobParquet.cpu_s_per_million,
      },
      peak_rss_mb: peakMb,
      parquet_bytes: parquetBytes,
      parquet_zstd_bytes: zstdParquet.bytes,
      csv_gzip_bytes: gzipCsv.bytes,
      report_job_time_share: reportJob.time,
      report_job_cpu_share: reportJob.cpu,
      report_time_share: reportPool.time,
      report_cpu_share: reportPool.cpu,
    };
  } finally {
    await services.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const JOB_FORMATS = ['csv', 'ndjson', 'parquet'] as const;
type JobFormat = (typeof JOB_FORMATS)[number];
const RUNS = [
  'job_csv',
  'job_ndjson',
  'job_parquet',
  'pool_csv',
  'pool_ndjson',
  'pool_csv_report',
  'job_csv_report',
] as const;
type Run = (typeof RUNS)[number];

/** Keeps each run's fastest timing (other processes only ever slow a run down) and its first. */
function record(
  best: Record<Run, Timing | undefined>,
  first: Partial<Record<Run, Timing>>,
  name: Run,
  timing: Timing,
): void {
  first[name] ??= timing;
  const kept = best[name];
  if (!kept || timing.rows_per_s > kept.rows_per_s) best[name] = timing;
}

/** What a run with the report costs over the run without it: wall time and CPU, as shares. */
interface ReportShare {
  time: number;
  cpu: number;
}

const reportShare = (without: Timing, withReport: Timing): ReportShare => ({
  time: without.rows_per_s / withReport.rows_per_s - 1,
  cpu: withReport.cpu_s_per_million / without.cpu_s_per_million - 1,
});

/** Each share's median over the pairs, taken apart: the median time and the median CPU may be of different pairs. */
function medianShare(pairs: ReportShare[]): ReportShare {
  const median = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    const middle = sorted.length >> 1;
    return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
  };
  return { time: median(pairs.map((pair) => pair.time)), cpu: median(pairs.map((pair) => pair.cpu)) };
}

const signed = (share: number): string => `${share >= 0 ? '+' : ''}${(100 * share).toFixed(1)}%`;
const shares = (median: ReportShare, pairs: ReportShare[]): string => {
  const times = pairs.map((pair) => signed(pair.time)).join(', ');
  return `${signed(median.time)} time, ${signed(median.cpu)} CPU (pairs' time: ${times})`;
};

const pct = (part: number, whole: number): string => `${Math.round((100 * part) / whole)}%`;
const cpu = (timing: Timing): string => timing.cpu_s_per_million.toFixed(2);
const mb = (bytes: number): string => `${(bytes / 1_048_576).toFixed(1)} MB`;
const perSecond = (timing: Timing): string => `${Math.round(timing.rows_per_s).toLocaleString('en')} rows/s`;
