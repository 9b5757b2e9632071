import type { DataType, Sampler } from '../types/index.js';

/** One column of a table as the engine compiled it: what a row writer needs to print its cells. */
export interface CompiledColumn {
  name: string;
  type: DataType;
  nullable: boolean;
  nullRate: number;
  /**
   * The share of the pack's own nulls (its declared null_rate, never above `nullRate`): all that tables reading
   * the row see, since a config's null_rate override marks the table's output, not the data other tables derive
   * from it. Drawn with the same number as the output's, so a null they see is a null of the output too.
   */
  ownNullRate: number;
  /** Money columns: the fixed currency, or the column holding the row's currency. */
  currency?: string;
  currencyColumn?: string;
  /** Reference columns: the table they point at. */
  references?: string;
  /**
   * Key and reference columns: the key of row `rowOf(index)` of a table. Left out of output rows by the
   * engine's completion, for the writer to print without a string (rows looked up by other tables, and
   * values a generator sets itself, are as before).
   */
  key?: { prefix: string; tableSeed: number; rowOf: (index: number) => number };
  /** The columns of the row this one's parameters name (country_column, name_column, ...): drawn before it. */
  dependsOn: readonly string[];
  fill: Sampler;
}
