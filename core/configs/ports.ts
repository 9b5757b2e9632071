import type { JsonSchema } from '../json-schema.js';
import type { GenerationConfig } from './config-schema.js';

/**
 * What the config machinery needs to know of the loaded sector packs: which tables exist, what a
 * table costs, its columns and its options schema. The engine's pack registry is adapted to this port
 * (core/catalog/packs-for-configs.ts): the rules depend on these few facts, not on how packs are loaded.
 */
export interface PackColumn {
  name: string;
  /** A data type of GET /v1/catalog/types. */
  type: string;
  /** What a config may override: parameters of its type, and `null_rate` (any column but keys and references). */
  overridable: readonly string[];
  /** Its values are the generator's, not drawn from parameters: a config may override its `null_rate` alone. */
  computed: boolean;
  /**
   * Why the column's parameters with these overrides (but null_rate) applied are not valid for its type;
   * empty when they are.
   */
  checkOverride(override: Record<string, unknown>): string[];
}

export interface PackTable {
  name: string;
  /** Credits per 1,000 rows. */
  weight: number;
  columns: readonly PackColumn[];
  optionsSchema: JsonSchema;
}

export interface PackCatalog {
  sectorNames(): string[];
  /** undefined: no such sector. */
  tables(sector: string): readonly PackTable[] | undefined;
  /**
   * The tables that the config's tables reference but it does not list, each with the rows the engine
   * sizes it to so that every reference has a target (before any walk of parents grows one).
   */
  referencedTables(config: GenerationConfig): { name: string; rows: number }[];
  /** The tables the config lists whose rows a rate option sets (motifs per 1,000 accounts), with those rows. */
  ratedTables(config: GenerationConfig): { name: string; rows: number }[];
}

export function findTable(catalog: PackCatalog, sector: string, table: string): PackTable | undefined {
  return catalog.tables(sector)?.find((candidate) => candidate.name === table);
}
