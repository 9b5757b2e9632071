import { randomInt } from 'node:crypto';
import { createAjv } from '../json-schema.js';
import { problem } from '../problems.js';
import { checkColumnParams } from './types/param-checks.js';
import { parentsOf } from './pack-definition.js';
import { columnParams, isComputed, mergeParams, overridableOf } from './types/params.js';

export { mergeParams };
import type { PackDefinition } from './pack-definition.js';
import { DEFAULT_LOCALE, isKnownLocale } from './reference-data/locale-pools.js';
import { GenerationProblems } from './problems.js';
import { AS_OF_MAX, AS_OF_MIN, DEFAULT_AS_OF, isAsOfDate } from './as-of.js';
import { dataTypeByName } from './types/index.js';
import { fitParentRuns, fitParentRunsWith, type ParentWalk, type WalkOptions } from './parent-runs.js';
import { ownMember } from '../own-member.js';
import { activeRate, applyRowsAtRate, sizedByRate } from './rows-at-rate.js';
import type { ColumnOverride, PackSource, Plan, PlanRequest, PlanTable } from './plan-types.js';

export type { ColumnOverride, PackSource, Plan, PlanRequest, PlanTable } from './plan-types.js';

/** Rows in one table of one plan; keys stay unique up to 2^32 rows, this keeps well below. */
export const MAX_TABLE_ROWS = 1_000_000_000;

const ajv = createAjv();
/** Rows of a child table up to which an unrequested parent gets one row per child row. */
const SMALL_SAMPLE_PARENTS = 10;

/**
 * The plan of a request, its `rows_per_parent` walks counted in the calling thread: for callers without a
 * pool (the pack test kit, tests). The service plans with `GenerationPool.plan`, whose workers count them.
 */
export function buildPlan(packs: PackSource, request: PlanRequest): Plan {
  const { pack, plan } = draftPlan(packs, request);
  fitParentRuns(pack, plan, MAX_TABLE_ROWS);
  return plan;
}

/** Makes the walk of a table with `rows_per_parent` in a plan being built (elsewhere than this thread). */
export type WalkParents = (
  pack: PackDefinition,
  plan: Plan,
  table: string,
  options: WalkOptions,
) => Promise<ParentWalk>;

/**
 * How far planning may go for a request: `maxWalkedParents` for one that must answer at once
 * (MAX_WALKED_PARENTS otherwise).
 */
export interface PlanLimits {
  maxWalkedParents?: number;
}

/** The plan of a request, its `rows_per_parent` walks made by `walk`. */
export async function buildPlanWith(
  packs: PackSource,
  request: PlanRequest,
  walk: WalkParents,
  { maxWalkedParents }: PlanLimits = {},
): Promise<Plan> {
  const { pack, plan } = draftPlan(packs, request);
  await fitParentRunsWith(
    pack,
    plan,
    MAX_TABLE_ROWS,
    (table, options) => walk(pack, plan, table, options),
    maxWalkedParents,
  );
  return plan;
}

/**
 * The tables a request references but does not name, with the rows they are sized to before any walk
 * of parents (which may grow one).
 */
export function unrequestedTables(packs: PackSource, request: PlanRequest): { name: string; rows: number }[] {
  return draftPlan(packs, request)
    .plan.tables.filter((table) => !table.requested)
    .map(({ name, rows }) => ({ name, rows }));
}

/** The tables a request names whose rows a rate option sets (`rows_at_rate`), with those rows. */
export function ratedTables(packs: PackSource, request: PlanRequest): { name: string; rows: number }[] {
  const { pack, plan } = draftPlan(packs, request);
  return plan.tables
    .filter((table) => table.requested && activeRate(pack, table))
    .map(({ name, rows }) => ({ name, rows }));
}

/** The plan but for the `rows_per_parent` walks, which may grow an unrequested parent table. */
function draftPlan(packs: PackSource, request: PlanRequest): { pack: PackDefinition; plan: Plan } {
  const pack = packs.require(request.sector);
  const locale = request.locale ?? DEFAULT_LOCALE;
  if (!isKnownLocale(locale))
    throw problem(
      GenerationProblems.unknownLocale,
      `Locale "${locale}" is unknown; use a faker locale name such as en_GB, en_US, de or fr.`,
    );
  const asOf = request.as_of ?? DEFAULT_AS_OF;
  if (!isAsOfDate(asOf))
    throw problem(
      GenerationProblems.invalidPlan,
      `The as-of date must be a date from ${AS_OF_MIN} to ${AS_OF_MAX} (YYYY-MM-DD), not "${asOf}".`,
    );
  const seed = request.seed ?? randomInt(0, 2 ** 32);
  if (!Number.isSafeInteger(seed) || seed < 0)
    throw problem(GenerationProblems.invalidPlan, `The seed must be a non-negative integer, not ${String(seed)}.`);
  if (!request.tables.length) throw problem(GenerationProblems.invalidPlan, 'The request names no table.');

  const requested = new Map<string, PlanTable>();
  for (const table of request.tables) {
    const definition = ownMember(pack.tables, table.name);
    if (!definition) {
      throw problem(
        GenerationProblems.unknownTable,
        `Sector "${pack.name}" has no table "${table.name}"; its tables are ${Object.keys(pack.tables).join(', ')}.`,
        { sector: pack.name, table: table.name },
      );
    }
    if (requested.has(table.name))
      throw problem(GenerationProblems.invalidPlan, `Table "${table.name}" is named twice.`);
    const rows = table.rows ?? definition.default_rows;
    if (!Number.isInteger(rows) || rows < 0 || rows > MAX_TABLE_ROWS) {
      throw problem(
        GenerationProblems.invalidPlan,
        `Table "${table.name}": rows must be an integer from 0 to ${MAX_TABLE_ROWS}, not ${String(rows)}.`,
      );
    }
    requested.set(table.name, {
      name: table.name,
      rows,
      requested: true,
      options: resolveOptions(pack, table.name, table.options ?? {}),
      columns: checkOverrides(pack, table.name, table.columns ?? {}),
    });
  }
  const tables = [...requested.values(), ...sizeParents(pack, requested)];
  for (const table of tables) {
    for (const parent of parentsOf(pack, table.name)) {
      // A table at a rate of this parent has no rows when the parent has none.
      if (sizedByRate(pack, table, parent)) continue;
      if (table.rows > 0 && tables.find((t) => t.name === parent)!.rows === 0) {
        throw problem(
          GenerationProblems.invalidPlan,
          `Table "${table.name}" has rows that reference "${parent}", which has none.`,
        );
      }
    }
  }
  const plan = { sector: pack.name, pack_version: pack.version, seed, locale, as_of: asOf, tables };
  // Rates apply to the rows sized here, before any walk, so that a config's estimate counts the same rows.
  applyRowsAtRate(pack, plan);
  return { pack, plan };
}

/**
 * Parents that the request does not name still get a row count so that references resolve: the child's
 * rows scaled by the ratio of the pack's default row counts, the largest over the children, and at least
 * as many as the child has rows up to SMALL_SAMPLE_PARENTS, so that a small sample (three card
 * transactions) is spread over several parents instead of all pointing at one.
 */
function sizeParents(pack: PackDefinition, requested: Map<string, PlanTable>): PlanTable[] {
  const rows = new Map<string, number>([...requested].map(([name, table]) => [name, table.rows]));
  const closure = new Set(requested.keys());
  for (const name of closure) for (const parent of parentsOf(pack, name)) closure.add(parent);
  const size = (name: string): number => {
    const known = rows.get(name);
    if (known !== undefined) return known;
    let largest = 0;
    for (const child of closure) {
      if (!parentsOf(pack, child).includes(name) || sizedByRate(pack, requested.get(child), name)) continue;
      const ratio = pack.tables[name].default_rows / pack.tables[child].default_rows;
      largest = Math.max(largest, Math.ceil(size(child) * ratio), Math.min(size(child), SMALL_SAMPLE_PARENTS));
    }
    const sized = Math.min(MAX_TABLE_ROWS, largest);
    rows.set(name, sized);
    return sized;
  };
  return [...closure]
    .filter((name) => !requested.has(name))
    .map((name) => ({
      name,
      rows: size(name),
      requested: false,
      options: resolveOptions(pack, name, {}),
      columns: {},
    }));
}

function resolveOptions(pack: PackDefinition, table: string, given: Record<string, unknown>): Record<string, unknown> {
  const declared = pack.tables[table].options ?? {};
  const resolved: Record<string, unknown> = {};
  for (const [name, option] of Object.entries(declared)) resolved[name] = option.default;
  for (const [name, value] of Object.entries(given)) {
    const option = ownMember(declared, name);
    if (!option) {
      const known = Object.keys(declared);
      throw problem(
        GenerationProblems.invalidOptions,
        `Table "${table}" has no option "${name}"; ` +
          `${known.length ? `its options are ${known.join(', ')}` : 'it takes no options'}.`,
        { table, option: name },
      );
    }
    if (!ajv.validate(option.schema, value)) {
      throw problem(
        GenerationProblems.invalidOptions,
        `Table "${table}", option "${name}": ${ajv.errorsText(ajv.errors, { dataVar: 'value' })}.`,
        { table, option: name },
      );
    }
    resolved[name] = value;
  }
  return resolved;
}

function checkOverrides(
  pack: PackDefinition,
  table: string,
  overrides: Record<string, ColumnOverride>,
): Record<string, ColumnOverride> {
  const columns = pack.tables[table].columns;
  for (const [name, override] of Object.entries(overrides)) {
    const refuse = (reason: string) =>
      problem(GenerationProblems.invalidOverride, `Table "${table}", column "${name}": ${reason}.`, {
        table,
        column: name,
      });
    const column = ownMember(columns, name);
    if (!column) throw refuse(`no such column; the table's columns are ${Object.keys(columns).join(', ')}`);
    if (typeof override !== 'object' || override === null || Array.isArray(override))
      throw refuse('an override is an object of parameters');
    if (column.type === 'id' || column.type === 'reference')
      throw refuse(`a ${column.type} column cannot be overridden (keys and references must stay valid)`);
    const type = dataTypeByName.get(column.type)!;
    const { null_rate, ...params } = override;
    if (null_rate !== undefined && (typeof null_rate !== 'number' || null_rate < 0 || null_rate > 1))
      throw refuse('null_rate must be a number from 0 to 1');
    const accepted = overridableOf(column);
    const refused = Object.keys(params).filter((key) => !accepted.includes(key));
    if (refused.length) {
      const whose = isComputed(column) ? "the column is computed by its table's generator" : `type ${type.name}`;
      throw refuse(
        `${whose} does not accept ${refused.map((key) => `"${key}"`).join(', ')} as an override (it accepts ` +
          `${accepted.join(', ')})`,
      );
    }
    const merged = mergeParams(columnParams(column), params);
    const reasons = checkColumnParams(type.name, merged, { computed: isComputed(column) });
    if (reasons.length) throw refuse(reasons.join('; '));
    // Compiling catches what a schema cannot (weights naming values that do not exist, empty ranges).
    if (Object.keys(params).length) {
      try {
        type.compile(merged, {
          tableSeed: 0,
          get pools(): never {
            throw new Error('locale data is not needed to check an override');
          },
        });
      } catch (error) {
        throw refuse((error as Error).message);
      }
    }
  }
  return overrides;
}
