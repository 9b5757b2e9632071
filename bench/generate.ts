/**
 * `npm run bench -- generate [--json] [--rows N] [--repeat R]`: `finsynth generate` of N cards transactions to CSV
 * (the table alone: referenced_tables omit), run as a user runs it, a child process of bin/finsynth.js. Reports the
 * rate of the whole run (process start to exit) and of the table itself (as the command's last progress line says),
 * the best of R runs, and the child's peak resident memory (its pool's worker threads included). The target: at
 * least 90 % of the CSV job rate of `npm run bench -- jobs` with the same rows, and a peak under 512 MB.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchOptions } from './index.js';

export interface GenerateFigures {
  rows: number;
  /** Rows per second from process start to exit. */
  run_rows_per_s: number;
  /** Rows per second of the table itself, as the command measured it. */
  table_rows_per_s: number;
  peak_rss_mb: number | null;
  bytes: number;
}

const bin = fileURLToPath(new URL('../bin/finsynth.js', import.meta.url));
const SEED = 20_261_122;

function positiveArgument(args: string[], name: string, fallback: number): number {
  const index = args.indexOf(name);
  const value = index === -1 ? fallback : Number(args[index + 1]);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} takes a positive integer`);
  return value;
}

/** The peak resident memory of a process so far (Linux: VmHWM), in bytes; null where /proc is not there. */
function peakRss(pid: number): number | null {
  try {
    const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb === undefined ? null : Number(kb) * 1024;
  } catch {
    return null;
  }
}

/** One run of `finsynth generate`: its wall time, the rate its progress line gives, and its peak memory. */
async function once(config: string, out: string): Promise<{ seconds: number; tableRate: number; peak: number | null }> {
  const started = performance.now();
  const child = spawn(process.execPath, [bin, 'generate', config, '--out', out], {
    env: { ...process.env, FINSYNTH_PACKS: '' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  let peak: number | null = null;
  // The high-water mark only grows: the last sample before the exit is the peak, within the sampling interval.
  const sampler = setInterval(() => {
    const sampled = peakRss(child.pid!);
    if (sampled !== null) peak = Math.max(peak ?? 0, sampled);
  }, 50);
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  clearInterval(sampler);
  if (code !== 0) throw new Error(`finsynth generate exited ${code}: ${stderr}`);
  const rate = /transactions: [\d,]+ rows in [\d.]+ s \(([\d,]+) rows\/s\)/.exec(stderr)?.[1];
  return {
    seconds: (performance.now() - started) / 1000,
    tableRate: rate === undefined ? NaN : Number(rate.replace(/,/g, '')),
    peak,
  };
}

export async function run({ json, args }: BenchOptions): Promise<GenerateFigures> {
  const rows = positiveArgument(args, '--rows', 5_000_000);
  const repeat = positiveArgument(args, '--repeat', 3);
  const say = (line: string) => (json ? console.error(line) : console.log(line));
  const dir = await mkdtemp(join(tmpdir(), 'finsynth-bench-generate-'));
  try {
    const config = join(dir, 'transactions.yaml');
    await writeFile(
      config,
      `version: 1\nsector: cards\nseed: ${SEED}\ntables:\n  - name: transactions\n    rows: ${rows}\n` +
        'output: { format: csv, referenced_tables: omit }\n',
    );
    say(`finsynth generate: cards.transactions, ${rows.toLocaleString('en')} rows to CSV, best of ${repeat} runs`);
    const loadAtStart = loadavg()[0];
    let best: { seconds: number; tableRate: number } | undefined;
    let peak: number | null = null;
    let bytes = 0;
    for (let round = 0; round < repeat; round++) {
      const out = join(dir, `out-${round}`);
      const result = await once(config, out);
      bytes = (await stat(join(out, 'transactions.csv'))).size;
      // Removed at once, so that the runs do not pile gigabytes on the disk.
      await rm(out, { recursive: true, force: true });
      if (result.peak !== null) peak = Math.max(peak ?? 0, result.peak);
      if (!best || result.seconds < best.seconds) best = result;
    }
    const figures: GenerateFigures = {
      rows,
      run_rows_per_s: Math.round(rows / best!.seconds),
      table_rows_per_s: best!.tableRate,
      peak_rss_mb: peak === null ? null : Math.round(peak / 1_048_576),
      bytes,
    };
    say(
      `whole run ${figures.run_rows_per_s.toLocaleString('en')} rows/s (${best!.seconds.toFixed(1)} s, process ` +
        `start included); the table ${figures.table_rows_per_s.toLocaleString('en')} rows/s; ` +
        `${(bytes / 1_048_576).toFixed(0)} MiB written`,
    );
    say(
      `peak RSS ${figures.peak_rss_mb ?? 'unknown (no /proc)'} MB (target < 512 MB); compare the table's rate with ` +
        '`npm run bench -- jobs` (CSV job, same rows): the target is at least 90 % of it',
    );
    say(`load average (1 min): ${loadAtStart.toFixed(1)} at the start, ${loadavg()[0].toFixed(1)} at the end`);
    return figures;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
