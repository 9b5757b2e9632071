import type { Rng } from './random/prng.js';
import type { Helpers } from './helpers.js';
import type { Row } from './types/data-type.js';

/*
 * The shape of a sector pack as the engine runs it. Pack authors meet these types through the SDK
 * (core/packs/sdk.ts), which re-exports them with definePack and its helpers.
 */

/** The column types of the catalog (GET /v1/catalog/types describes each one and its parameters). */
export type ColumnType =
  | 'id'
  | 'reference'
  | 'uuid'
  | 'code'
  | 'integer'
  | 'decimal'
  | 'money'
  | 'boolean'
  | 'enum'
  | 'currency'
  | 'country'
  | 'date'
  | 'timestamp'
  | 'iban'
  | 'bic'
  | 'pan'
  | 'card_network'
  | 'mcc'
  | 'isin'
  | 'person_name'
  | 'first_name'
  | 'last_name'
  | 'company'
  | 'street_address'
  | 'city'
  | 'postcode'
  | 'email'
  | 'phone'
  | 'string';

/**
 * A column: its type, what it means, an example value, whether it may be null, and the type's
 * parameters inline (`{ type: 'money', currency_column: 'currency', distribution: 'lognormal', mu: 3, sigma: 1 }`).
 */
export interface ColumnDefinition {
  type: ColumnType;
  description: string;
  example?: unknown;
  nullable?: boolean;
  /**
   * Share of rows where the engine writes null instead of the value (nullable columns): each row's value, drawn or
   * set by the table's `row`, is replaced with this chance, and a null the `row` wrote stays null.
   */
  null_rate?: number;
  /**
   * The table's `row` (or `start`) always sets this column: nothing draws it, so it needs none of its
   * type's drawing parameters (a date without `from`/`to`), and a config may override only its null_rate.
   * Parameters it does give must be valid (a money column's `currency_column` still rounds it).
   */
  computed?: boolean;
  /**
   * The table's `row` reshapes this column's draw (`ctx.draw`): scales it, takes it as a quantile, mixes it with
   * values of its own. Its `distribution` and parameters (weights, rate), and a config's override of them, then
   * describe the draw, not the column's values, and the conformance report holds no such target against them.
   */
  draw_reshaped?: boolean;
  [param: string]: unknown;
}

/**
 * The value a column holds in a row that `ctx.lookup` returns: numbers for numeric types, booleans, an enum's
 * values (a union when the columns are declared with `defineColumns`), milliseconds or ISO text for a timestamp
 * (a row function may return either), text otherwise; and null when the column may be null.
 */
export type ColumnValue<C extends ColumnDefinition> =
  | (C['type'] extends 'integer' | 'decimal' | 'money'
      ? number
      : C['type'] extends 'boolean'
        ? boolean
        : C extends { type: 'enum'; values: readonly (infer V extends string)[] }
          ? V
          : C['type'] extends 'timestamp'
            ? string | number
            : string)
  | (C extends { nullable: true } | { null_rate: number } ? null : never);

/** A table's row as `ctx.lookup` returns it, typed from the table's column definitions. */
export type RowOf<Columns extends Record<string, ColumnDefinition>> = {
  -readonly [Name in keyof Columns]: ColumnValue<Columns[Name]>;
};

/** An option a generation config may set for the table (`options: { fraud_rate: 0.002 }`). */
export interface OptionDefinition {
  description: string;
  /** JSON Schema of the value; the plan builder refuses a value that fails it. */
  schema: Record<string, unknown>;
  default: unknown;
}

/** What a table's generator sees for each row. */
export interface RowContext<O = Record<string, unknown>> {
  /** The row's position in its table (0-based, over the whole table). */
  readonly index: number;
  /** The table's row count in this plan. */
  readonly rows: number;
  /** This row's random stream: seeded from (seed, table, row index), or (seed, table, parent) per parent. */
  readonly rng: Rng;
  /** The table's options: the config's values over the pack's defaults. */
  readonly options: O;
  /**
   * Draws a column's value by its definition with the config's overrides applied (distribution, weights).
   * Pass the row built so far when the type reads another column (a BIC from `iban_column`).
   */
  readonly draw: Readonly<Record<string, (row?: Row) => unknown>>;
  /** The parent index a reference column points at in this row (drawn once per row; the owning parent per parent). */
  ref(column: string): number;
  /**
   * Points this row's reference `column` at row `index` of the table it references, for a row that chooses
   * its parent: the engine writes that row's key as it does the references it draws (the same bytes as
   * setting the column to `ctx.key(table, index)`, without building the string), rows looked up by other
   * tables hold the key, and `ctx.ref(column)` answers `index`. Leave the column out of the returned row
   * (a value there wins). In `row` only, and not for the owning parent's column of a per-parent table;
   * `refOf` from another table still answers the drawn index.
   */
  setRef(column: string, index: number): void;
  /**
   * A row of another table, regenerated from its index (the same values that table's output holds). Give the
   * row's type to read its columns typed: `ctx.lookup<Member>('members', i).tier`, where
   * `type Member = RowOf<typeof memberColumns>` (see `RowOf`).
   */
  lookup<R extends Row = Row>(table: string, index: number): R;
  /** The key of a row of another table, from its index alone. */
  key(table: string, index: number): string;
  /** The parent index that a row of another table points at through its reference `column`. */
  refOf(table: string, index: number, column: string): number;
  /** The row count of a table of the plan (parents not requested are sized too, see the guide). */
  rowsOf(table: string): number;
  /**
   * A random stream of its own, named: seeded from (plan seed, the parent table, `ctx.parent`, name) in a
   * per-parent table, so every table generated per the same parent draws the same numbers from it (two
   * tables walking one price path); from (plan seed, this table, `ctx.index`, name) in a flat table —
   * the same stream as its per-parent tables', so a `rows_per_parent` can re-derive what the parent row
   * drew from it without looking the parent up. Each call starts the stream afresh.
   */
  stream(name: string): Rng;
  /**
   * The dataset's as-of date (YYYY-MM-DD, the config's `as_of`): no event of a row falls after it, and what
   * falls due later is scheduled, not yet paid or missed.
   */
  readonly asOf: string;
  /** The first instant after the as-of day, in milliseconds since the epoch: every event is before it. */
  readonly asOfEnd: number;
  /** Realistic identifiers and reference data (IBAN, PAN, ISIN, currencies, countries, MCCs, rounding). */
  readonly helpers: Helpers;
  /** Per-parent tables: the parent's index, this row's position among its rows, and how many it has. */
  readonly parent: number;
  readonly position: number;
  readonly count: number;
}

/**
 * A table's rows set by a rate (`rows_at_rate`): when the request gives the rate option, the table has
 * `rate × rows of the base table ÷ per` rows, rounded down, at most the rows the request names.
 */
export interface RowsAtRate {
  /** The table option holding the rate; the rate applies only when the request gives it a number. */
  option: string;
  /** The table the rate is of: one the table references. */
  of: string;
  /** The base the rate is per: 1,000 for a rate per thousand rows of `of`. */
  per: number;
}

// A pack's tables share one record, yet each table's generators take options and state of their own types, and
// `start` returns the state that `row` takes: only `any` lets every table fit the record's element type.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- per-table option and state types, see above
export interface TableDefinition<O = any, S = any> {
  description: string;
  /** Rows generated when a request names the table without a count, and the basis of parent sizing. */
  default_rows: number;
  /** Cost weight: credits per 1,000 rows (the price rule is in core/pricing/table-credits.ts). */
  credits_per_1000_rows: number;
  columns: Record<string, ColumnDefinition>;
  options?: Record<string, OptionDefinition>;
  /**
   * Generate this table per parent row of another table: a chunk owns whole parents, and the parent's
   * rows come in order, so running balances and per-entity sequences are possible. `start` makes the
   * parent's state (e.g. an opening balance); `row` receives it and may update it.
   */
  per_parent?: string;
  /**
   * Per-parent tables: how many rows a parent has (an integer, 0 or more), decided from the parent alone
   * (`ctx.parent`, `ctx.lookup`, `ctx.rng`: a stream of (seed, table, parent) of its own) — a loan's term,
   * a policy's claim count. The table is then its parents' complete runs in parent order, ending after the
   * requested rows (the last parent's run may be cut there, `ctx.count` still says its full count). Without
   * it, the engine spreads the requested rows over all the parents. See the guide, section 4.
   */
  rows_per_parent?: (ctx: RowContext<O>) => number;
  /**
   * Rows set by a rate of a parent table's rows when the request gives the option (motifs per 1,000
   * accounts): the request's `rows` is then the most the table has. See the guide, section 4.
   */
  rows_at_rate?: RowsAtRate;
  start?: (ctx: RowContext<O>) => S;
  /**
   * Returns the row's values, in a new object per row (the engine completes it in place and keeps it); columns it
   * leaves out are drawn by their definitions, in declared order. Without `row`, every column is drawn by its
   * definition.
   */
  row?: (ctx: RowContext<O>, state: S) => Row;
  /** Rules every row keeps, checked on every row by the conformance report (docs/reports.md). */
  invariants?: InvariantDefinition[];
  /** Shares the table's options ask for (a fraud rate), held against the rows by the conformance report. */
  rate_targets?: RateTarget[];
}

/**
 * A rule of a table's rows. `previous` is the row before of the same parent in a per-parent table (undefined
 * for a parent's first row and in a flat table). Rows are as generated: amounts before the writer rounds them
 * to their currency's minor units, times as ISO strings or milliseconds.
 */
export interface InvariantDefinition {
  /** Kebab-case: the rule a finding names. */
  name: string;
  description: string;
  holds: (row: Row, previous: Row | undefined) => boolean;
}

/** The share of rows whose `column` is `value` (as text: 'true' for a boolean) that option `option` asks for. */
export interface RateTarget {
  option: string;
  column: string;
  value: string;
}

export interface PackDefinition {
  /** Lower-case sector name: the `sector` of a generation request. */
  name: string;
  /** Semantic version of the pack. */
  version: string;
  description: string;
  tables: Record<string, TableDefinition>;
}

/** What the engine needs of the loaded packs: each sector's definition and the module its workers import. */
export interface LoadedPacks {
  names(): string[];
  require(sector: string): PackDefinition;
  loaded(sector: string): { definition: PackDefinition; module_url: string };
}

/** The tables a table references (its parents), in column order. */
export function parentsOf(pack: PackDefinition, table: string): string[] {
  return [
    ...new Set(
      Object.values(pack.tables[table].columns)
        .filter((c) => c.type === 'reference')
        .map((c) => String(c.table)),
    ),
  ];
}
