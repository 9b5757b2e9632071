import { buildPlan, type PlanRequest } from '../../../core/generation/plan.js';
import { PlanRuntime } from '../../../core/generation/runtime.js';
import { ChunkLayout } from '../../../core/generation/layout.js';
import { renderChunk } from '../../../core/generation/chunk.js';
import type { PackDefinition } from '../../../core/packs/sdk.js';

/**
 * A pack's tables generated in this thread, as the pool's workers would (same plan, same chunks, same
 * bytes), parsed back from NDJSON: what the property tests check invariants on. Running inline keeps a
 * property test over a hundred seeds fast; the pack test kit covers the pool and worker counts.
 */
export type Rows = Record<string, unknown>[];

export function generateTables(pack: PackDefinition, request: Omit<PlanRequest, 'sector'>): Record<string, Rows> {
  const plan = buildPlan({ require: () => pack }, { ...request, sector: pack.name });
  const runtime = new PlanRuntime(pack, plan);
  const decoder = new TextDecoder();
  const out: Record<string, Rows> = {};
  for (const table of plan.tables) {
    const layout = new ChunkLayout(pack, plan, table.name);
    let text = '';
    for (let index = 0; index < layout.count; index++) text += decoder.decode(renderChunk(runtime, table.name, layout.at(index), 'ndjson'));
    out[table.name] = text.split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);
  }
  return out;
}

/** Rows grouped by a column, in output order. */
export function groupBy(rows: Rows, column: string): Map<unknown, Rows> {
  const groups = new Map<unknown, Rows>();
  for (const row of rows) {
    const group = groups.get(row[column]);
    if (group) group.push(row);
    else groups.set(row[column], [row]);
  }
  return groups;
}

/** A decimal amount as an integer of minor units, exactly (the writers print fixed-point decimals). */
export const minor = (amount: unknown, digits = 2): number => Math.round(Number(amount) * 10 ** digits);
