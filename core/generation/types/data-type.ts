import type { Rng } from '../random/prng.js';
import type { LocalePools } from '../reference-data/locale-pools.js';

/** A generated row while it is being built: column name to value. */
export type Row = Record<string, unknown>;

/**
 * Draws one cell. `row` holds the columns drawn so far (types that depend on another column, such as a
 * BIC on its IBAN, read it there); `index` is the row's position in its table.
 */
export type Sampler = (rng: Rng, row: Row, index: number) => unknown;

export interface CompileEnv {
  /** The seed of the table's streams, from (plan seed, table name). */
  tableSeed: number;
  pools: LocalePools;
}

export type JsonSchema = Record<string, unknown>;

/**
 * A column type of the catalog. Its parameters are written inline in a pack's column definition
 * (`{ type: 'money', currency_column: 'currency', distribution: 'lognormal', mu: 3, sigma: 1 }`), checked
 * against `params` when the pack loads; the ones listed in `overridable` may also be set by a generation
 * config's per-column overrides.
 */
export interface DataType<P = unknown> {
  name: string;
  description: string;
  /** The JSON type of the values in NDJSON and JSON output. */
  json_type: 'string' | 'integer' | 'number' | 'boolean';
  /** A JSON Schema `format` the values follow, where one applies (date, date-time, uuid, …). */
  format?: string;
  params: JsonSchema;
  overridable: readonly string[];
  example: unknown;
  compile(params: P, env: CompileEnv): Sampler;
}

export function defineDataType<P>(type: DataType<P>): DataType<P> {
  return type;
}
