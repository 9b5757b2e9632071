import { AssertionError } from 'node:assert';
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { buildPlan, type PackSource, type Plan, type PlanRequest } from '../generation/plan.js';
import { ProblemError } from '../problems.js';
import { GenerationPool } from '../generation/pool.js';
import { CountingUnexpectedErrors } from '../faults/unexpected-errors.js';
import { dataTypeByName } from '../generation/types/index.js';
import { asOfEnd, DEFAULT_AS_OF } from '../generation/as-of.js';
import { bicCountry, validateBic } from '../generation/realism/bic.js';
import { validateIban } from '../generation/realism/iban.js';
import { validateIsin } from '../generation/realism/isin.js';
import { validatePan } from '../generation/realism/pan.js';
import type { CardNetwork } from '../generation/reference-data/card-networks.js';
import { countryByCode } from '../generation/reference-data/countries.js';
import { currencyByCode } from '../generation/reference-data/currencies.js';
import { merchantCategoryByCode } from '../generation/reference-data/merchant-categories.js';
import type { Format } from '../generation/codegen/writers.js';
import { loadPacks, refusalMessage } from './loader.js';
import { PackRegistry } from './registry.js';
import type { PackDefinition } from './sdk.js';

/**
 * The pack test kit: one call a pack author makes in their own tests (any test framework: it throws an
 * AssertionError naming what is wrong). It loads the pack as the service does and checks that
 * - the manifest is valid (else the loader's reasons);
 * - a request naming every table without counts plans each at its default rows, whatever the seed
 *   (with `rows_per_parent`, the default parents must hold the default children);
 * - every table generates, in NDJSON, CSV and JSON (the JSON output parses as one array);
 * - rows carry exactly the declared columns, in order, with values of the declared types, null only
 *   where the column is nullable, and unique keys; IBANs, card numbers, ISINs, BICs, currencies,
 *   countries and MCCs valid by their standards; a BIC of its row's IBAN's country (`iban_column`), a
 *   card number of its row's network (`network_column`); no timestamp (an event) after the as-of date;
 * - every reference resolves to a key of the referenced table;
 * - the same seed gives the same bytes with 1 and with 4 workers.
 */
export interface CheckPackOptions {
  /** Rows per table (default 1,500): with the small chunks below, every table spans several chunks. */
  rows?: number;
  seed?: number;
  locale?: string;
  /** The dataset's as-of date (YYYY-MM-DD); the engine's default when left out. */
  as_of?: string;
  /** Table options to use, by table. */
  options?: Record<string, Record<string, unknown>>;
}

export interface PackCheckReport {
  pack: string;
  tables: Record<string, { rows: number; sha256: string }>;
}

const KIT_CHUNK_ROWS = 400;
/** Seeds the default-rows check plans with (from the kit's seed on). */
const DEFAULT_PLAN_SEEDS = 25;

/** What a value of a realistic type must satisfy beyond its JSON type: the standards the types promise. */
const STANDARD_CHECKS: Record<string, (value: string) => boolean> = {
  iban: validateIban,
  pan: (value) => validatePan(value),
  isin: validateIsin,
  bic: validateBic,
  currency: (value) => currencyByCode.has(value),
  country: (value) => countryByCode.has(value),
  mcc: (value) => merchantCategoryByCode.has(value),
};
/**
 * What a value promises about another column of its row: the BIC of the IBAN's country, a card number of
 * the row's network.
 */
const ROW_RELATIONS: Record<
  string,
  { column: string; holds: (value: string, other: string) => boolean; broken: string }
> = {
  bic: {
    column: 'iban_column',
    holds: (bic, iban) => bicCountry(bic) === iban.slice(0, 2),
    broken: 'is not of the country of',
  },
  pan: {
    column: 'network_column',
    holds: (pan, network) => validatePan(pan, network as CardNetwork['name']),
    broken: 'is not a card number of',
  },
};
const FORMAT_PATTERNS: Record<string, RegExp> = {
  date: /^\d{4}-\d{2}-\d{2}$/,
  'date-time': /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/,
  uuid: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
};

export async function checkPack(
  module: string | URL,
  { rows = 1500, seed = 1234, locale, as_of, options = {} }: CheckPackOptions = {},
): Promise<PackCheckReport> {
  const path = module instanceof URL ? fileURLToPath(module) : module;
  const loaded = await loadPacks({ builtinDir: '/nonexistent', extra: [path] });
  if (loaded.refused.length) fail(refusalMessage(loaded.refused[0]));
  const [name] = loaded.names();
  const pack = loaded.require(name);
  const registry = new PackRegistry([loaded.loaded(name)]);
  checkDefaultPlans(registry, pack, name, seed);
  const plan: Plan = {
    ...planWithin(registry, {
      sector: name,
      seed,
      locale,
      as_of,
      tables: Object.keys(pack.tables).map((table) => ({ name: table, rows, options: options[table] })),
    }),
    chunk_rows: KIT_CHUNK_ROWS,
  };
  // Whatever a pool emits that no task answered for is a failure of the check, not a passing remark.
  const faults = new CountingUnexpectedErrors();
  const one = new GenerationPool(registry, { size: 1, faults });
  const four = new GenerationPool(registry, { size: 4, faults });
  try {
    const report: PackCheckReport = { pack: name, tables: {} };
    const keys = new Map<string, Set<string>>();
    const generated = new Map<string, Record<string, unknown>[]>();
    for (const table of Object.keys(pack.tables)) {
      const ndjson = await text(one, plan, table, 'ndjson');
      const parsed = ndjson
        .split('\n')
        .filter(Boolean)
        .map((line, i) => parseLine(table, line, i));
      const expected = plan.tables.find((t) => t.name === table)!.rows;
      if (parsed.length !== expected) fail(`table "${table}": ${parsed.length} rows generated, ${expected} planned`);
      checkRows(pack, table, parsed, keys, asOfEnd(plan.as_of ?? DEFAULT_AS_OF));
      generated.set(table, parsed);
      const json = await text(one, plan, table, 'json');
      let array: unknown;
      try {
        array = JSON.parse(json);
      } catch (error) {
        fail(`table "${table}": JSON output is not valid JSON (${(error as Error).message})`);
      }
      if (!Array.isArray(array) || array.length !== expected)
        fail(`table "${table}": JSON output is not one array of ${expected} rows`);
      const csv = await text(one, plan, table, 'csv');
      const header = csv.slice(0, csv.indexOf('\r\n'));
      if (header !== Object.keys(pack.tables[table].columns).join(','))
        fail(`table "${table}": CSV header "${header}" does not list the columns`);
      const hashOne = sha256(ndjson);
      const hashFour = sha256(await text(four, plan, table, 'ndjson'));
      if (hashOne !== hashFour) fail(`table "${table}": seed ${seed} gives different bytes with 1 and with 4 workers`);
      report.tables[table] = { rows: parsed.length, sha256: hashOne };
    }
    checkReferences(pack, generated, keys);
    const [unexpected] = faults.seen;
    if (unexpected) fail(`the generation pool reported an error no task answered for: ${String(unexpected.error)}`);
    return report;
  } finally {
    await Promise.all([one.close(), four.close()]);
  }
}

function checkDefaultPlans(registry: PackSource, pack: PackDefinition, sector: string, firstSeed: number): void {
  const tables = Object.keys(pack.tables).map((name) => ({ name }));
  const defaults = Object.values(pack.tables).map((table) => table.default_rows);
  for (let seed = firstSeed; seed < firstSeed + DEFAULT_PLAN_SEEDS; seed++) {
    let planned: number[];
    try {
      planned = buildPlan(registry, { sector, seed, tables }).tables.map((table) => table.rows);
    } catch (error) {
      if (!(error instanceof ProblemError)) throw error;
      fail(`every table at its default rows does not plan with seed ${seed}: ${error.detail}`);
    }
    if (planned.join() !== defaults.join())
      fail(
        `every table at its default rows, seed ${seed}, plans ${planned.join(', ')} rows instead of ` +
          `${defaults.join(', ')}`,
      );
  }
}

/**
 * The plan of a request, except that a table whose parents decide their counts (`rows_per_parent`) and
 * whose parents' runs hold fewer rows than asked gets the rows they hold (the plan builder's refusal says
 * how many): ask for many rows to get every parent's complete run.
 */
export function planWithin(packs: PackSource, request: PlanRequest): Plan {
  for (;;) {
    try {
      return buildPlan(packs, request);
    } catch (error) {
      const available = error instanceof ProblemError ? error.extensions.rows_available : undefined;
      const table =
        error instanceof ProblemError ? request.tables.find((t) => t.name === error.extensions.table) : undefined;
      if (typeof available !== 'number' || !table || available >= (table.rows ?? Infinity)) throw error;
      request = { ...request, tables: request.tables.map((t) => (t === table ? { ...t, rows: available } : t)) };
    }
  }
}

async function text(pool: GenerationPool, plan: Plan, table: string, format: Format): Promise<string> {
  return (await pool.bytes(plan, table, { format })).toString('utf8');
}

function parseLine(table: string, line: string, index: number): Record<string, unknown> {
  try {
    return JSON.parse(line) as Record<string, unknown>;
  } catch (error) {
    fail(`table "${table}", row ${index}: not valid JSON (${(error as Error).message}): ${line.slice(0, 200)}`);
  }
}

function checkRows(
  pack: PackDefinition,
  table: string,
  rows: Record<string, unknown>[],
  keys: Map<string, Set<string>>,
  asOfEnd: number,
): void {
  const columns = Object.entries(pack.tables[table].columns);
  const names = columns.map(([name]) => name).join(',');
  const seen = new Set<string>();
  rows.forEach((row, index) => {
    const at = `table "${table}", row ${index}`;
    if (Object.keys(row).join(',') !== names) fail(`${at}: columns ${Object.keys(row).join(',')} instead of ${names}`);
    for (const [name, column] of columns) {
      const value = row[name];
      if (value === null) {
        if (!column.nullable && !column.null_rate)
          fail(`${at}, column "${name}": null in a column not declared nullable`);
        continue;
      }
      const type = dataTypeByName.get(column.type)!;
      const ok =
        type.json_type === 'integer'
          ? Number.isInteger(value)
          : type.json_type === 'number'
            ? typeof value === 'number' && Number.isFinite(value)
            : typeof value === type.json_type;
      if (!ok)
        fail(`${at}, column "${name}": ${JSON.stringify(value)} is not of type ${column.type} (${type.json_type})`);
      const pattern = type.format && FORMAT_PATTERNS[type.format];
      if (pattern && !pattern.test(String(value)))
        fail(`${at}, column "${name}": ${JSON.stringify(value)} is not a ${type.format}`);
      if (column.type === 'enum' && !(column.values as string[]).includes(String(value)))
        fail(`${at}, column "${name}": ${JSON.stringify(value)} is not one of its values`);
      const standard = STANDARD_CHECKS[column.type];
      if (standard && !standard(String(value)))
        fail(`${at}, column "${name}": ${JSON.stringify(value)} is not a valid ${column.type}`);
      const relation = ROW_RELATIONS[column.type];
      const related = relation && column[relation.column] !== undefined ? row[String(column[relation.column])] : null;
      if (related !== null && related !== undefined && !relation.holds(String(value), String(related))) {
        fail(
          `${at}, column "${name}": ${JSON.stringify(value)} ${relation.broken} ` +
            `"${String(column[relation.column])}" (${String(related)})`,
        );
      }
      // A timestamp is an event, and a dataset holds none after its as-of date.
      if (column.type === 'timestamp' && !(Date.parse(String(value)) < asOfEnd))
        fail(`${at}, column "${name}": ${String(value)} is after the as-of date`);
      if (column.type === 'id') {
        if (seen.has(String(value))) fail(`${at}, column "${name}": key ${String(value)} repeats`);
        seen.add(String(value));
      }
    }
  });
  keys.set(table, seen);
}

function checkReferences(
  pack: PackDefinition,
  generated: Map<string, Record<string, unknown>[]>,
  keys: Map<string, Set<string>>,
): void {
  for (const [table, rows] of generated) {
    for (const [name, column] of Object.entries(pack.tables[table].columns)) {
      if (column.type !== 'reference') continue;
      const targets = keys.get(String(column.table))!;
      rows.forEach((row, index) => {
        if (row[name] !== null && !targets.has(String(row[name]))) {
          fail(
            `table "${table}", row ${index}, column "${name}": ${String(row[name])} is no key of ` +
              `"${String(column.table)}"`,
          );
        }
      });
    }
  }
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

function fail(message: string): never {
  throw new AssertionError({ message: `pack check failed: ${message}` });
}
