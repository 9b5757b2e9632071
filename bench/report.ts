/**
 * `npm run bench -- report [--json] [--rows N] [--repeat R] [--only pack.table]`: what the conformance report's
 * statistics cost per row, in this thread, for each pack's largest table: the rows are made once and kept, then
 * observed as a worker observes them beside its writer (core/reports/chunk-observer.ts), chunk by chunk; the
 * best of R passes, in CPU time, which other processes' load moves less than wall time. Beside it, the CPU per
 * row of making the rows (their first pass, so the generator's start included) gives the scale.
 */
import type { BenchOptions } from './index.js';
import { loadPacks } from '../core/packs/loader.js';
import type { PackRegistry } from '../core/packs/registry.js';
import { buildPlan } from '../core/generation/plan.js';
import { PlanRuntime } from '../core/generation/runtime.js';
import { ChunkLayout } from '../core/generation/layout.js';
import type { ChunkSpec } from '../core/generation/chunk-spec.js';
import { eachRow } from '../core/generation/chunk.js';
import type { Row } from '../core/generation/types/index.js';
import { observeChunk } from '../core/reports/chunk-observer.js';

interface TableFigures {
  table: string;
  rows: number;
  /** CPU µs per row: making the rows (first pass), and observing them (best pass). */
  generation_us_per_row: number;
  observer_us_per_row: number;
}

/** A chunk's rows as its worker made them, with each row's index in the table. */
interface MadeChunk {
  spec: ChunkSpec;
  rows: Row[];
  indexes: number[];
}

export async function run({ json, args }: BenchOptions): Promise<TableFigures[]> {
  const option = (name: string, fallback: number) =>
    args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback;
  const rows = option('--rows', 200_000);
  const repeat = option('--repeat', 8);
  const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : undefined;
  const registry = await loadPacks();
  const figures: TableFigures[] = [];
  for (const sector of registry.names()) {
    const table = largestTable(registry, sector);
    if (only && only !== `${sector}.${table}`) continue;
    const pack = registry.require(sector);
    const plan = buildPlan(registry, { sector, seed: 7, tables: [{ name: table, rows }] });
    const runtime = new PlanRuntime(pack, plan);
    const layout = new ChunkLayout(pack, plan, table);
    const made = cpuMicros(() => {
      const chunks: MadeChunk[] = [];
      for (let i = 0; i < layout.count; i++) {
        const chunk: MadeChunk = { spec: layout.at(i), rows: [], indexes: [] };
        eachRow(runtime, table, chunk.spec, (row, index) => {
          chunk.rows.push(row);
          chunk.indexes.push(index);
        });
        chunks.push(chunk);
      }
      return chunks;
    });
    let best = Infinity;
    for (let pass = 0; pass < repeat; pass++) {
      const { micros } = cpuMicros(() => {
        for (const chunk of made.value) {
          const observer = observeChunk(runtime, table, chunk.spec);
          for (let i = 0; i < chunk.rows.length; i++) observer.visit(chunk.rows[i], chunk.indexes[i]);
          observer.finish();
        }
      });
      best = Math.min(best, micros);
    }
    const entry = {
      table: `${sector}.${table}`,
      rows,
      generation_us_per_row: made.micros / rows,
      observer_us_per_row: best / rows,
    };
    figures.push(entry);
    if (!json)
      console.log(
        `${entry.table.padEnd(28)} observer ${entry.observer_us_per_row.toFixed(3)} µs/row CPU ` +
          `(making the rows: ${entry.generation_us_per_row.toFixed(3)}, first pass)`,
      );
  }
  return figures;
}

function cpuMicros<T>(work: () => T): { value: T; micros: number } {
  const started = process.cpuUsage();
  const value = work();
  const { user, system } = process.cpuUsage(started);
  return { value, micros: user + system };
}

function largestTable(registry: PackRegistry, sector: string): string {
  const { tables } = registry.require(sector);
  return Object.keys(tables).sort((a, b) => tables[b].default_rows - tables[a].default_rows)[0];
}
