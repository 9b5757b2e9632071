import type { PlanRequest } from '../../../core/generation/plan.js';
import type { PackDefinition } from '../../../core/packs/sdk.js';
import { planWithin } from '../../../core/packs/test-kit.js';
import { generateInline, rowsOf } from '../../core/generation/support.js';

/**
 * Every table of a plan generated in this thread, as the pool's workers would (same plan, same chunks,
 * same bytes), parsed back from NDJSON: what the packs' property tests check invariants on. Inline
 * generation keeps a property test over dozens of seeds fast; the pack test kit covers the pool. A table
 * with `rows_per_parent` asking more rows than its parents hold gets what they hold (`planWithin`).
 */
export type Rows = Record<string, unknown>[];

export function generateTables(pack: PackDefinition, request: Omit<PlanRequest, 'sector'>): Record<string, Rows> {
  const plan = planWithin({ require: () => pack }, { sector: pack.name, ...request });
  return Object.fromEntries(plan.tables.map((table) => [table.name, rowsOf(generateInline(pack, plan, table.name))]));
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

/** A person's age in whole years on a date, from the date of birth (ISO dates or timestamps). */
export function ageOn(dateOfBirth: unknown, date: unknown): number {
  const [bornYear, bornMonth, bornDay] = String(dateOfBirth).slice(0, 10).split('-').map(Number);
  const [year, month, day] = String(date).slice(0, 10).split('-').map(Number);
  return year - bornYear - (month < bornMonth || (month === bornMonth && day < bornDay) ? 1 : 0);
}
