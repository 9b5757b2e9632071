import type { PackDefinition, RowsAtRate } from './pack-definition.js';
import type { Plan, PlanTable } from './plan-types.js';

/** Slack for a product such as 0.29 × 100 that binary floating point puts just under a whole number. */
const WHOLE_SLACK = 1e-9;

/** The table's rate rule when its options give the rate, or undefined when its rows are the requested count. */
export function activeRate(pack: PackDefinition, table: PlanTable): (RowsAtRate & { rate: number }) | undefined {
  const rule = pack.tables[table.name].rows_at_rate;
  const rate = rule ? table.options[rule.option] : undefined;
  return rule && typeof rate === 'number' ? { ...rule, rate } : undefined;
}

/** True when `child`'s rows follow from `parent`'s at a rate, so they must not size it. */
export function sizedByRate(pack: PackDefinition, child: PlanTable | undefined, parent: string): boolean {
  return child !== undefined && activeRate(pack, child)?.of === parent;
}

/** Sets the rows of each table at a rate, once every other table of the plan has its count. */
export function applyRowsAtRate(pack: PackDefinition, plan: Plan): void {
  for (const table of plan.tables) {
    const rule = activeRate(pack, table);
    if (!rule) continue;
    const base = plan.tables.find((candidate) => candidate.name === rule.of)?.rows ?? 0;
    table.rows = Math.min(table.rows, Math.floor((rule.rate * base) / rule.per + WHOLE_SLACK));
  }
}
