import type { PackDefinition, RowContext, TableDefinition } from './pack-definition.js';
import type { CompiledColumn } from './codegen/compiled-column.js';
import { generatedFactory } from './codegen/generated-code.js';
import { helpers } from './helpers.js';
import { localePools } from './reference-data/locale-pools.js';
import { columnParams, isComputed, mergeParams } from './types/params.js';
import type { Plan, PlanTable } from './plan-types.js';
import { fmix32, hashString, mix, Rng, tableSeed } from './random/prng.js';
import { dataTypeByName, type Row, type Sampler } from './types/index.js';
import { rowKey } from './types/identifiers.js';
import { asOfEnd, DEFAULT_AS_OF } from './as-of.js';
import { columnDependencies, drawOrder } from './types/column-dependencies.js';

/**
 * A plan compiled against its pack, in one thread: each table's columns become samplers (with the
 * config's overrides), and any row of a flat table can be regenerated from its index. That is how
 * references work without parent rows in memory: a child asks for its parent's key, or its whole row,
 * and gets exactly the values the parent table's output holds.
 */
export class PlanRuntime {
  private readonly tables = new Map<string, TableRuntime>();
  private readonly planTables: Map<string, PlanTable>;
  /** The plan's as-of date, or the default for a plan made before plans held one. */
  readonly asOf: string;

  constructor(
    readonly pack: PackDefinition,
    readonly plan: Plan,
  ) {
    this.asOf = plan.as_of ?? DEFAULT_AS_OF;
    this.planTables = new Map(plan.tables.map((table) => [table.name, table]));
  }

  table(name: string): TableRuntime {
    let runtime = this.tables.get(name);
    if (!runtime) {
      const planned = this.planTables.get(name);
      if (!planned) throw new Error(`table "${name}" is not part of this plan`);
      runtime = new TableRuntime(this, planned, this.pack.tables[name]);
      this.tables.set(name, runtime);
    }
    return runtime;
  }

  rowsOf(table: string): number {
    const planned = this.planTables.get(table);
    if (!planned) throw new Error(`table "${table}" is not part of this plan`);
    return planned.rows;
  }
}

/**
 * A reference column `ctx.setRef` may point: its position among the table's columns, the referenced
 * table's rows, and the row each row points at.
 */
interface Pointable {
  name: string;
  position: number;
  rows: number;
  rowOf: (index: number) => number;
}

const EMPTY_ROW: Row = Object.freeze({}) as Row;
const TWO_POW_32 = 4294967296;
const LOOKUP_CACHE_SIZE = 4096;
const PARENT_ROWS_STREAM = 0x70a2e47;

export class TableRuntime {
  readonly name: string;
  readonly rows: number;
  readonly seed: number;
  readonly columns: CompiledColumn[];
  readonly parentTable: string | undefined;
  readonly keyPrefix: string | undefined;
  /** Per-parent tables: the reference column to the owning parent. */
  readonly parentColumn: string | undefined;
  readonly rng = new Rng();
  readonly context: TableContext;
  /** Draws the columns the generator left out, in declared order, then applies null rates. */
  private readonly complete: (row: Row, rng: Rng, index: number) => void;
  /** The same for a row that goes to the writer, which prints key columns itself. */
  private readonly completeOutput: (row: Row, rng: Rng, index: number) => void;
  /**
   * Per column (by position), the values its null rate replaced with null in the rows built for output so far (a
   * value already null is not counted): the conformance report's null-rate target is of these.
   */
  readonly nullRateNulls: Float64Array;
  private readonly references = new Map<string, { seed: number; parents: number }>();
  private readonly keyIndices = new Float64Array(LOOKUP_CACHE_SIZE).fill(-1);
  private readonly keys: string[] = new Array(LOOKUP_CACHE_SIZE);
  /** Rows looked up by other tables, direct-mapped by index: bounded memory, and parents repeat a lot. */
  private readonly lookupIndices = new Float64Array(LOOKUP_CACHE_SIZE).fill(-1);
  private readonly lookupRows: Row[] = new Array(LOOKUP_CACHE_SIZE);
  private busy = false;
  /** The row built last: a generator that returns it again is refused (build). */
  private lastRow: Row | undefined;
  /**
   * Reference columns a generator pointed itself (`ctx.setRef`), by column position: the row it did so in
   * (a row's index names it until the writer has printed it) and the parent index it chose.
   */
  private readonly chosenRows: Float64Array;
  private readonly chosenParents: Float64Array;
  /** The reference columns a generator may point, by name: their position and the referenced table's rows. */
  private readonly pointable = new Map<string, Pointable>();
  /** The column pointed last: a generator points the same one row after row, and a Map lookup per row shows. */
  private lastPointed: Pointable | undefined;
  private countedParent = -1;
  private counted = 0;
  /** The seeds of the named streams (`ctx.stream`), by name. */
  private readonly streamSeeds = new Map<string, number>();

  constructor(
    readonly plan: PlanRuntime,
    planned: PlanTable,
    readonly definition: TableDefinition,
  ) {
    this.name = planned.name;
    this.rows = planned.rows;
    this.seed = tableSeed(plan.plan.seed, planned.name);
    this.parentTable = definition.per_parent;
    const env = {
      tableSeed: this.seed,
      get pools() {
        return localePools(plan.plan.locale);
      },
    };
    this.chosenRows = new Float64Array(Object.keys(definition.columns).length).fill(-1);
    this.chosenParents = new Float64Array(this.chosenRows.length);
    this.columns = Object.entries(definition.columns).map(([name, column], position) => {
      const override = planned.columns[name] ?? {};
      const { null_rate: overriddenNullRate, ...overrideParams } = override;
      const params = mergeParams(columnParams(column), overrideParams);
      const type = dataTypeByName.get(column.type)!;
      const nullRate = Number(overriddenNullRate ?? column.null_rate ?? 0);
      return {
        name,
        type,
        nullable: Boolean(column.nullable) || nullRate > 0,
        nullRate,
        ownNullRate: Math.min(nullRate, Number(column.null_rate ?? 0)),
        currency: params.currency as string | undefined,
        currencyColumn: params.currency_column as string | undefined,
        references: column.type === 'reference' ? String(column.table) : undefined,
        dependsOn: columnDependencies(params),
        key:
          column.type === 'id'
            ? { prefix: String(params.prefix), tableSeed: this.seed, rowOf: (index: number) => index }
            : column.type === 'reference'
              ? this.referenceKey(name, position, String(column.table))
              : undefined,
        fill:
          column.type === 'reference'
            ? this.referenceFill(name, position, String(column.table))
            : isComputed(column)
              ? unsetComputed(name)
              : type.compile(params, env),
      };
    });
    const keyColumn = Object.values(definition.columns).find((column) => column.type === 'id');
    this.keyPrefix = keyColumn ? String(keyColumn.prefix) : undefined;
    this.nullRateNulls = new Float64Array(this.columns.length);
    this.complete = compileCompletion(this.columns, false, this.nullRateNulls);
    this.completeOutput = compileCompletion(this.columns, true, this.nullRateNulls);
    this.parentColumn = this.columns.find(
      (column) => column.references !== undefined && column.references === this.parentTable,
    )?.name;
    this.context = new TableContext(this, planned.options);
  }

  private referenceKey(column: string, position: number, table: string): CompiledColumn['key'] {
    const parent = this.plan.table(table);
    if (!parent.keyPrefix) return undefined;
    const rowOf =
      table === this.parentTable ? () => this.context.parent : this.referencedRow(column, position, parent.rows);
    return { prefix: parent.keyPrefix, tableSeed: parent.seed, rowOf };
  }

  private referenceFill(column: string, position: number, table: string): Sampler {
    const parent = this.plan.table(table);
    if (table === this.parentTable) return () => parent.key(this.context.parent);
    const rowOf = this.referencedRow(column, position, parent.rows);
    return (_rng, _row, index) => parent.key(rowOf(index));
  }

  /**
   * The parent index row `index` points at through `column`: the generator's choice (`ctx.setRef`), else
   * the drawn one. One function per column, which its key, its fill and `ctx.ref` share.
   */
  private referencedRow(column: string, position: number, rows: number): (index: number) => number {
    let pointable = this.pointable.get(column);
    if (!pointable) {
      const { chosenRows, chosenParents } = this;
      const rowOf = (index: number) =>
        chosenRows[position] === index ? chosenParents[position] : this.refIndex(column, index);
      this.pointable.set(column, (pointable = { name: column, position, rows, rowOf }));
    }
    return pointable.rowOf;
  }

  /** `ctx.setRef`: the row being generated points `column` at row `parent` of the table the column references. */
  setRef(column: string, parent: number): void {
    let pointed = this.lastPointed;
    if (pointed?.name !== column) pointed = this.lastPointed = this.pointable.get(column);
    if (pointed === undefined) {
      const owning =
        this.parentTable !== undefined &&
        this.columns.some((c) => c.name === column && c.references === this.parentTable);
      const why = owning
        ? 'points at the owning parent, which the engine fills'
        : 'is not a reference column of the table';
      throw new Error(`table "${this.name}": setRef("${column}") — the column ${why}`);
    }
    if (!this.busy)
      throw new Error(
        `table "${this.name}": setRef("${column}") is for the row being generated, in the table's row function`,
      );
    const { position, rows } = pointed;
    if (!(Number.isInteger(parent) && parent >= 0 && parent < rows))
      throw new Error(
        `table "${this.name}": setRef("${column}", ${parent}) — the referenced table has rows 0 to ${rows - 1}`,
      );
    this.chosenRows[position] = this.context.index;
    this.chosenParents[position] = parent;
  }

  /** The parent index the current row points at through `column` (`ctx.ref`). */
  ref(column: string): number {
    if (column === this.parentColumn) return this.context.parent;
    const pointable = this.pointable.get(column);
    return pointable ? pointable.rowOf(this.context.index) : this.refIndex(column, this.context.index);
  }

  /** The parent index a row's reference column points at: a pure function of (seed, table, column, row). */
  refIndex(column: string, index: number): number {
    let reference = this.references.get(column);
    if (!reference) {
      const target = this.columns.find((c) => c.name === column)?.references;
      if (!target) throw new Error(`table "${this.name}" has no reference column "${column}"`);
      if (target === this.parentTable)
        throw new Error(`column "${column}" points at the owning parent; a per-parent row is addressed by its parent`);
      reference = { seed: mix(this.seed, hashString(column)), parents: this.plan.rowsOf(target) };
      this.references.set(column, reference);
    }
    return Math.floor((fmix32(mix(reference.seed, index)) / TWO_POW_32) * reference.parents);
  }

  /**
   * A named stream (`ctx.stream`): per parent, from (seed, parent table, parent, name), which every table
   * generated per that parent shares; in a flat table, from (seed, table, row index, name).
   */
  stream(name: string): Rng {
    let seed = this.streamSeeds.get(name);
    if (seed === undefined) {
      seed = mix(this.parentTable ? this.plan.table(this.parentTable).seed : this.seed, hashString(name));
      this.streamSeeds.set(name, seed);
    }
    return new Rng(seed, this.parentTable ? this.context.parent : this.context.index);
  }

  /** The key of row `index`; keys asked for by other tables repeat, so they are cached like looked-up rows. */
  key(index: number): string {
    const slot = index & (LOOKUP_CACHE_SIZE - 1);
    if (this.keyIndices[slot] === index) return this.keys[slot];
    if (!this.keyPrefix) throw new Error(`table "${this.name}" has no id column`);
    const key = rowKey(this.keyPrefix, this.seed, index);
    this.keyIndices[slot] = index;
    this.keys[slot] = key;
    return key;
  }

  /** Row `index` of a flat table, as another table sees it (the same values its own output holds). */
  lookup(index: number): Row {
    const slot = index & (LOOKUP_CACHE_SIZE - 1);
    if (this.lookupIndices[slot] === index) return this.lookupRows[slot];
    if (this.busy) throw new Error(`table "${this.name}" cannot look up its own rows while generating one`);
    const row = this.flatRow(index);
    this.lookupIndices[slot] = index;
    this.lookupRows[slot] = row;
    return row;
  }

  /** Row `index` of a flat table; `output` leaves its key columns to the writer. */
  flatRow(index: number, output = false): Row {
    if (this.parentTable)
      throw new Error(`table "${this.name}" is generated per parent; its rows cannot be addressed by index`);
    this.rng.reseed(this.seed, index);
    const ctx = this.context;
    ctx.index = index;
    ctx.parent = -1;
    ctx.position = 0;
    ctx.count = 1;
    return this.build(undefined, output);
  }

  /**
   * A parent's row count by the table's `rows_per_parent`, on a stream of (seed, table, parent) apart from
   * the one `start` and `row` draw from. The last parent asked for is remembered: the layout and then
   * `beginParent` both ask for it.
   */
  parentRows(parent: number): number {
    if (this.countedParent === parent) return this.counted;
    const hook = this.definition.rows_per_parent;
    if (!hook) throw new Error(`table "${this.name}" has no rows_per_parent`);
    this.rng.reseed(mix(this.seed, PARENT_ROWS_STREAM), parent);
    const ctx = this.context;
    ctx.parent = parent;
    ctx.index = -1;
    ctx.position = 0;
    ctx.count = 0;
    const rows = hook(ctx);
    if (!Number.isSafeInteger(rows) || rows < 0)
      throw new Error(
        `table "${this.name}": rows_per_parent returned ${String(rows)} for parent ${parent}; ` +
          'it must return an integer, 0 or more',
      );
    this.countedParent = parent;
    this.counted = rows;
    return rows;
  }

  /**
   * Starts a parent's rows: seeds the parent's stream and returns the state from the table's `start`.
   * `count` is how many rows the chunk writes; with `rows_per_parent`, `ctx.count` is the parent's full
   * count even where the table ends inside the parent's run.
   */
  beginParent(parent: number, count: number, firstRow: number): unknown {
    const full = this.definition.rows_per_parent ? this.parentRows(parent) : count;
    this.rng.reseed(this.seed, parent);
    const ctx = this.context;
    ctx.parent = parent;
    ctx.count = full;
    ctx.position = 0;
    ctx.index = firstRow;
    return this.definition.start ? this.definition.start(ctx) : undefined;
  }

  /** The next row of the current parent, for the writer (key columns left to it). */
  parentRow(state: unknown, position: number, index: number): Row {
    const ctx = this.context;
    ctx.position = position;
    ctx.index = index;
    return this.build(state, true);
  }

  private build(state: unknown, output: boolean): Row {
    this.busy = true;
    try {
      const { rng, context } = this;
      // The generator returns a fresh object per row (the SDK's contract), completed here in place and kept by
      // lookups and the report's observer: one returned again would change the rows kept before it.
      const row: Row = this.definition.row ? this.definition.row(context, state) : {};
      if (row === this.lastRow)
        throw new Error(`table "${this.name}": row() returned the object of the row before; return a new one per row`);
      this.lastRow = row;
      (output ? this.completeOutput : this.complete)(row, rng, context.index);
      return row;
    } finally {
      this.busy = false;
    }
  }
}

/** The fill of a computed column: reached only when the generator did not set it. */
function unsetComputed(column: string): Sampler {
  return () => {
    throw new Error(`column "${column}" is computed by the table's generator, which did not set it`);
  };
}

/**
 * The completion step generated for a table's columns: a constant property name per column keeps each
 * access monomorphic (a loop over column names would make property lookup a large share of a row's cost).
 * Column names are checked identifiers (manifest schema) and are quoted here anyway. Key columns draw
 * nothing from the row's stream, so leaving them to the writer (`forOutput`) changes no other value.
 */
function compileCompletion(
  columns: CompiledColumn[],
  forOutput: boolean,
  nulled: Float64Array,
): (row: Row, rng: Rng, index: number) => void {
  const ordered = drawOrder(columns);
  const fills = ordered.map((column) => column.fill);
  // Rows looked up by other tables take only the pack's own nulls: a config's null_rate marks the output alone.
  const rates = columns.map((column) => (forOutput ? column.nullRate : column.ownNullRate));
  // Output rows count the values a null rate replaces (the report's null-rate target): a counter, only on a hit.
  const nullify = (name: string, i: number) =>
    forOutput
      ? `if (rng.next() < rates[${i}]) { if (row[${name}] !== null) nulled[${i}]++; row[${name}] = null; }`
      : `if (rng.next() < rates[${i}]) row[${name}] = null;`;
  const body = [
    ...ordered.flatMap((column, i) =>
      forOutput && column.key
        ? []
        : [
            `if (row[${JSON.stringify(column.name)}] === undefined) row[${JSON.stringify(column.name)}] = ` +
              `fills[${i}](rng, row, index);`,
          ],
    ),
    ...columns.flatMap((column, i) => (column.nullRate > 0 ? [nullify(JSON.stringify(column.name), i)] : [])),
  ].join('\n');
  return generatedFactory(['fills', 'rates', 'nulled'], `return function complete(row, rng, index) {\n${body}\n};`)(
    fills,
    rates,
    nulled,
  ) as (row: Row, rng: Rng, index: number) => void;
}

/** The RowContext a table's generator receives; one per table, updated in place for each row. */
class TableContext implements RowContext<Record<string, unknown>> {
  index = 0;
  parent = -1;
  position = 0;
  count = 1;
  readonly rows: number;
  readonly rng: Rng;
  readonly draw: Record<string, (row?: Row) => unknown>;
  readonly helpers = helpers;
  readonly asOf: string;
  readonly asOfEnd: number;
  private lastTableName = '';
  private lastTable: TableRuntime | undefined;

  constructor(
    private readonly runtime: TableRuntime,
    readonly options: Record<string, unknown>,
  ) {
    this.rows = runtime.rows;
    this.rng = runtime.rng;
    this.asOf = runtime.plan.asOf;
    this.asOfEnd = asOfEnd(this.asOf);
    this.draw = Object.fromEntries(
      runtime.columns.map((column) => [
        column.name,
        (row?: Row) => column.fill(this.rng, row ?? EMPTY_ROW, this.index),
      ]),
    );
  }

  ref(column: string): number {
    return this.runtime.ref(column);
  }

  setRef(column: string, parent: number): void {
    this.runtime.setRef(column, parent);
  }

  lookup<R extends Row = Row>(table: string, index: number): R {
    // R is the pack's own word for its table's row (RowOf its columns); the test kit holds the values it
    // generates to those columns' types, which is all a type here could check.
    return this.tableNamed(table).lookup(index) as R;
  }

  key(table: string, index: number): string {
    return this.tableNamed(table).key(index);
  }

  refOf(table: string, index: number, column: string): number {
    return this.tableNamed(table).refIndex(column, index);
  }

  /** Generators ask for the same table row after row: the last one is kept at hand. */
  private tableNamed(table: string): TableRuntime {
    if (table !== this.lastTableName || !this.lastTable) {
      this.lastTable = this.runtime.plan.table(table);
      this.lastTableName = table;
    }
    return this.lastTable;
  }

  rowsOf(table: string): number {
    return this.runtime.plan.rowsOf(table);
  }

  stream(name: string): Rng {
    return this.runtime.stream(name);
  }
}
