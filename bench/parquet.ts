/**
 * `npm run bench -- parquet [--json] [--rows N] [--repeat R]`: CPU seconds per 1,000,000 rows of cards
 * transactions written in this thread, chunk after chunk as a worker writes them, as CSV and as Parquet by
 * each encoder (the direct one, and hyparquet-writer's that it is held to), and each file's size against gzip
 * CSV of the same rows. One thread, so that the encoders are compared without the pool; each figure is the
 * best of R interleaved rounds, since on a shared machine other processes only ever slow a run down.
 */
import { gzipSync } from 'node:zlib';
import type { BenchOptions } from './index.js';
import { parquetRowGroup, renderChunk } from '../core/generation/chunk.js';
import { ChunkLayout } from '../core/generation/layout.js';
import { codecReady, type ParquetCompression } from '../core/generation/parquet/codecs.js';
import { writeRowGroup, type RowGroupRequest } from '../core/generation/parquet/row-group.js';
import { buildPlan } from '../core/generation/plan.js';
import { PlanRuntime } from '../core/generation/runtime.js';
import { loadPacks } from '../core/packs/loader.js';

const TABLE = 'transactions';

export async function run({ json, args }: BenchOptions) {
  const argument = (name: string, otherwise: number) =>
    args.includes(name) ? Number(args[args.indexOf(name) + 1]) : otherwise;
  const rows = argument('--rows', 300_000);
  const repeat = argument('--repeat', 3);
  const log = (line: string) => (json ? process.stderr : process.stdout).write(`${line}\n`);
  const registry = await loadPacks();
  const pack = registry.require('cards');
  const plan = buildPlan(registry, { sector: 'cards', seed: 7, tables: [{ name: TABLE, rows }] });
  const layout = new ChunkLayout(pack, plan, TABLE);
  await codecReady('zstd');

  /** A table's chunks written by `write`: CPU seconds per million rows, and their bytes. */
  const measure = (write: (runtime: PlanRuntime, chunk: number) => Uint8Array) => {
    const runtime = new PlanRuntime(pack, plan);
    const parts: Uint8Array[] = [];
    const start = process.cpuUsage();
    for (let i = 0; i < layout.count; i++) parts.push(write(runtime, i));
    const used = process.cpuUsage(start);
    return { cpu: (used.user + used.system) / rows, bytes: Buffer.concat(parts) };
  };
  const parquet =
    (compression: ParquetCompression, encoder: RowGroupRequest['encoder']) => (runtime: PlanRuntime, i: number) =>
      writeRowGroup({ ...parquetRowGroup(runtime, TABLE, layout.at(i), compression), encoder });
  const runs = {
    csv: (runtime: PlanRuntime, i: number) => renderChunk(runtime, TABLE, layout.at(i), 'csv').slice(),
    direct_snappy: parquet('snappy', 'direct'),
    direct_zstd: parquet('zstd', 'direct'),
    hyparquet_snappy: parquet('snappy', 'hyparquet'),
  };
  const cpu: Record<string, number> = {};
  const bytes: Record<string, number> = {};
  let gzipCsv = 0;
  for (let round = 0; round < repeat; round++)
    for (const [name, write] of Object.entries(runs)) {
      const figures = measure(write);
      cpu[name] = Math.min(cpu[name] ?? Infinity, figures.cpu);
      bytes[name] = figures.bytes.length;
      if (name === 'csv' && gzipCsv === 0) gzipCsv = gzipSync(figures.bytes).length;
    }

  const pct = (part: number, whole: number) => `${((100 * part) / whole).toFixed(1)}%`;
  log(`cards.${TABLE}, ${rows.toLocaleString('en')} rows in ${layout.count} chunks, one thread, best of ${repeat}:`);
  for (const name of Object.keys(runs))
    log(
      `  ${name.padEnd(17)} ${cpu[name].toFixed(2)} CPU s per 1,000,000 rows` +
        (name === 'csv'
          ? `; gzip csv ${bytes.csv.toLocaleString('en')} bytes`
          : ` (${pct(cpu.csv, cpu[name])} of csv's rows/s); ${pct(bytes[name], gzipCsv)} of gzip csv's bytes`),
    );
  return {
    rows,
    cpu_s_per_million: cpu,
    bytes: { ...bytes, gzip_csv: gzipCsv },
  };
}
