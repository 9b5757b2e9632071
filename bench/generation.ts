/**
 * `npm run bench -- generation [--json] [--rows N] [--repeat N] [--only pack.table]`: rows/s and MB/s of each
 * pack's largest table to NDJSON, with one worker and with the whole pool, against the naive baseline of
 * bench/_naive.ts; and each table's generator alone (rows made in this thread for no writer), which bounds what
 * one worker can reach. Pools are warmed up and chunks recycled, as a job's are; each figure is the best of
 * `--repeat` interleaved rounds, since on a shared machine other processes only ever slow a run down.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { BenchOptions } from './index.js';
import { loadPacks } from '../core/packs/loader.js';
import type { PackRegistry } from '../core/packs/registry.js';
import type { Plan } from '../core/generation/plan.js';
import { GenerationPool } from '../core/generation/pool.js';
import { eachRow } from '../core/generation/chunk.js';
import { ChunkLayout } from '../core/generation/layout.js';
import { PlanRuntime } from '../core/generation/runtime.js';
import { naiveRowsPerSecond } from './_naive.js';

interface TableFigures {
  rows: number;
  generator_rows_per_s: number;
  one_worker_rows_per_s: number;
  one_worker_mb_per_s: number;
  pool_rows_per_s: number;
  pool_mb_per_s: number;
}

export async function run({ json, args }: BenchOptions) {
  const rowsArg = args.indexOf('--rows');
  const rows = rowsArg >= 0 ? Number(args[rowsArg + 1]) : 200_000;
  const repeatArg = args.indexOf('--repeat');
  const repeat = repeatArg >= 0 ? Number(args[repeatArg + 1]) : 3;
  const onlyArg = args.indexOf('--only');
  const only = onlyArg >= 0 ? args[onlyArg + 1] : undefined;
  const log = (line: string) => (json ? process.stderr : process.stdout).write(`${line}\n`);
  const registry = await loadPacks();
  const poolSize = availableParallelism();
  const one = new GenerationPool(registry, { size: 1 });
  const all = new GenerationPool(registry, { size: poolSize });
  try {
    const targets = registry
      .names()
      .map((sector) => [sector, largestTable(registry, sector)] as const)
      .filter(([sector, table]) => !only || only === `${sector}.${table}`);
    for (const [sector, table] of targets) {
      const warm = await plan(all, sector, table, 20_000);
      await Promise.all([drain(one, warm, table), drain(all, warm, table)]);
    }
    naiveRowsPerSecond(20_000);
    // Rounds interleave the naive baseline, one worker and the pool, so that on a shared machine each
    // figure's best run comes from the same spells of load rather than the baseline from a quieter minute.
    // The baseline runs as many rows, and as many times, as the table it mirrors (or the first measured):
    // shorter or more numerous runs would give it more chances of catching a quiet moment.
    const baselineTable =
      targets.find(([sector, table]) => `${sector}.${table}` === 'cards.transactions') ?? targets[0];
    let naive = 0;
    const measuredTables: [string, number, { seconds: number; bytes: number }, { seconds: number; bytes: number }][] =
      [];
    for (const target of targets) {
      const [sector, table] = target;
      const measured = await plan(all, sector, table, rows);
      // Kept across rounds, as a worker keeps a plan's runtime (and the parent rows it has looked up).
      const runtime = new PlanRuntime(registry.require(sector), measured);
      let generatorSeconds = Infinity;
      let single = { seconds: Infinity, bytes: 0 };
      let pooled = { seconds: Infinity, bytes: 0 };
      for (let round = 0; round < repeat; round++) {
        if (target === baselineTable) naive = Math.max(naive, naiveRowsPerSecond(rows));
        generatorSeconds = Math.min(generatorSeconds, generateOnly(runtime, table));
        single = fastest(single, await drain(one, measured, table));
        pooled = fastest(pooled, await drain(all, measured, table));
      }
      measuredTables.push([`${sector}.${table}`, generatorSeconds, single, pooled]);
    }
    log(`naive baseline (faker call per cell, 1 thread): ${Math.round(naive).toLocaleString('en')} rows/s`);
    const parallelism = await measuredParallelism(poolSize);
    log(
      `pool: ${poolSize} workers; ${rows.toLocaleString('en')} rows per table, NDJSON; ` +
        `${poolSize} spinning threads now do ${parallelism}× the work of one`,
    );
    const tables: Record<string, TableFigures> = {};
    for (const [name, generatorSeconds, single, pooled] of measuredTables) {
      const figures: TableFigures = {
        rows,
        generator_rows_per_s: Math.round(rows / generatorSeconds),
        one_worker_rows_per_s: Math.round(rows / single.seconds),
        one_worker_mb_per_s: round(single.bytes / single.seconds / 1e6),
        pool_rows_per_s: Math.round(rows / pooled.seconds),
        pool_mb_per_s: round(pooled.bytes / pooled.seconds / 1e6),
      };
      tables[name] = figures;
      log(
        `${name.padEnd(24)} 1 worker ${figures.one_worker_rows_per_s.toLocaleString('en').padStart(10)} rows/s ` +
          `${String(figures.one_worker_mb_per_s).padStart(6)} MB/s ` +
          `(${round(figures.one_worker_rows_per_s / naive)}× naive)` +
          ` | pool ${figures.pool_rows_per_s.toLocaleString('en').padStart(10)} rows/s ` +
          `${String(figures.pool_mb_per_s).padStart(6)} MB/s ` +
          `(${round(figures.pool_rows_per_s / figures.one_worker_rows_per_s)}× 1 worker)` +
          ` | generator alone ${figures.generator_rows_per_s.toLocaleString('en').padStart(10)} rows/s ` +
          `(${round(figures.generator_rows_per_s / naive)}× naive)`,
      );
    }
    return { naive_rows_per_s: Math.round(naive), pool_size: poolSize, cpu_parallelism: parallelism, tables };
  } finally {
    await Promise.all([one.close(), all.close()]);
  }
}

function largestTable(registry: PackRegistry, sector: string): string {
  const { tables } = registry.require(sector);
  return Object.keys(tables).sort((a, b) => tables[b].default_rows - tables[a].default_rows)[0];
}

function plan(pool: GenerationPool, sector: string, table: string, rows: number): Promise<Plan> {
  return pool.plan({ sector, seed: 42, tables: [{ name: table, rows }] });
}

async function drain(pool: GenerationPool, plan: Plan, table: string): Promise<{ seconds: number; bytes: number }> {
  const started = performance.now();
  let bytes = 0;
  for await (const chunk of pool.generate(plan, table, { format: 'ndjson', recycle: true })) bytes += chunk.byteLength;
  return { seconds: (performance.now() - started) / 1000, bytes };
}

/**
 * How much work `threads` busy threads get done together, in units of one thread's, right now: the
 * ceiling of the pool's speed-up over one worker on this machine at this moment (other processes, or
 * virtual cores sharing a physical one, can bring it down to 1).
 */
async function measuredParallelism(threads: number): Promise<number> {
  const spin = (count: number) =>
    Promise.all(
      Array.from({ length: count }, () => {
        const worker = new Worker(
          'let n = 0; const end = Date.now() + 500; while (Date.now() < end) n++; ' +
            'require("node:worker_threads").parentPort.postMessage(n);',
          { eval: true },
        );
        return new Promise<number>((resolve, reject) => worker.once('message', resolve).once('error', reject));
      }),
    ).then((counts) => counts.reduce((sum, n) => sum + n, 0));
  const one = await spin(1);
  const all = await spin(threads);
  return round(all / one);
}

/**
 * Seconds to make every row of `table` in this thread with no writer. The last rows are kept where the
 * optimiser cannot see that nothing reads them, so that no row is left unmade.
 */
function generateOnly(runtime: PlanRuntime, table: string): number {
  const layout = new ChunkLayout(runtime.pack, runtime.plan, table);
  const started = performance.now();
  for (let i = 0; i < layout.count; i++)
    eachRow(runtime, table, layout.at(i), (row, index) => (lastRows[index & (lastRows.length - 1)] = row));
  return (performance.now() - started) / 1000;
}

const lastRows: unknown[] = new Array(64);

function fastest(a: { seconds: number; bytes: number }, b: { seconds: number; bytes: number }) {
  return b.seconds < a.seconds ? b : a;
}

const round = (value: number) => Math.round(value * 10) / 10;
