import { renderChunk, renderParquetChunk } from '../../../core/generation/chunk.js';
import { ParquetFile } from '../../../core/generation/parquet/file.js';
import type { ParquetCompression } from '../../../core/generation/parquet/codecs.js';
import { ChunkLayout } from '../../../core/generation/layout.js';
import { buildPlan, type Plan, type PlanRequest } from '../../../core/generation/plan.js';
import { PlanRuntime } from '../../../core/generation/runtime.js';
import type { Format } from '../../../core/generation/codegen/writers.js';
import type { PackDefinition } from '../../../core/packs/sdk.js';

/** Plans against one pack without a registry. */
export function planFor(pack: PackDefinition, request: Omit<PlanRequest, 'sector'>): Plan {
  return buildPlan({ require: () => pack }, { sector: pack.name, ...request });
}

/** A table generated in this thread, chunk after chunk, exactly as a worker would. */
export function generateInline(pack: PackDefinition, plan: Plan, table: string, format: Format = 'ndjson'): string {
  const runtime = new PlanRuntime(pack, plan);
  const layout = new ChunkLayout(pack, plan, table);
  const decoder = new TextDecoder();
  let text = '';
  for (let i = 0; i < layout.count; i++) text += decoder.decode(renderChunk(runtime, table, layout.at(i), format));
  return text;
}

/** A table as a Parquet file made in this thread, chunk after chunk, exactly as the workers and the pool would. */
export function parquetInline(
  pack: PackDefinition,
  plan: Plan,
  table: string,
  compression: ParquetCompression = 'snappy',
): Buffer {
  const runtime = new PlanRuntime(pack, plan);
  const layout = new ChunkLayout(pack, plan, table);
  const file = new ParquetFile();
  const parts = [file.start()];
  for (let i = 0; i < layout.count; i++)
    parts.push(file.add(renderParquetChunk(runtime, table, layout.at(i), compression)));
  parts.push(file.end());
  return Buffer.concat(parts);
}

export function rowsOf(ndjson: string): Record<string, unknown>[] {
  return ndjson
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}
