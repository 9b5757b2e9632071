import { DEFAULT_AS_OF } from '../generation/as-of.js';
import { DEFAULT_LOCALE } from '../generation/reference-data/locale-pools.js';
import type { PackRegistry } from '../packs/registry.js';
import { Problems, problem } from '../problems.js';
import { MAX_ROWS_PER_TABLE, MAX_TABLES } from '../configs/config-schema.js';
import { QUICK_LIMITS } from '../quick/quick-request.js';
import { parquetColumn } from '../generation/parquet/columns.js';
import { columnParams } from '../generation/types/params.js';

type TableDescription = NonNullable<ReturnType<PackRegistry['describeTable']>>;

function tableSummary({
  name,
  description,
  credits_per_1000_rows,
  default_rows,
  generated_per,
  parents,
}: TableDescription) {
  return { name, description, credits_per_1000_rows, default_rows, generated_per, parents };
}

/** What one request may ask for: quick generation answers in the exchange, jobs write files. */
export const LIMITS = {
  quick: QUICK_LIMITS,
  jobs: { max_rows_per_table: MAX_ROWS_PER_TABLE, max_tables: MAX_TABLES },
} as const;

/**
 * The catalog of GET /v1/catalog…: the engine's descriptions of the loaded packs (JSON-ready), with the
 * request limits, and 404 problems for what does not exist (the engine's `unknown-sector` is a 400,
 * right for a generation request that names it, wrong for a resource path).
 */
export class Catalog {
  constructor(private readonly packs: PackRegistry) {}

  /**
   * The index: each sector with its tables' row costs, each data type by name, and the limits. Table
   * schemas and type parameters are one request further (sectors/{sector}, types), which keeps the
   * index small: it is what clients fetch first and most often.
   */
  overview() {
    return {
      sectors: this.packs.describe().sectors.map(({ tables, ...sector }) => ({
        ...sector,
        // The pack's own table names: each has a description.
        tables: tables.map((table) => tableSummary(table!)),
      })),
      types: this.packs
        .describeDataTypes()
        .map(({ name, description, json_type, format }) => ({ name, description, json_type, format })),
      limits: LIMITS,
      default_locale: DEFAULT_LOCALE,
      default_as_of: DEFAULT_AS_OF,
    };
  }

  sector(name: string) {
    this.requireSector(name);
    const pack = this.packs.describePack(name);
    return { ...pack, tables: pack.tables.map((table) => this.withParquetTypes(name, table!)) };
  }

  table(sector: string, name: string) {
    this.requireSector(sector);
    const table = this.packs.describeTable(sector, name);
    if (!table)
      throw problem(
        Problems.notFound,
        `the sector "${sector}" has no table "${name}"; its tables: ` +
          `${Object.keys(this.packs.require(sector).tables).join(', ')}`,
      );
    return this.withParquetTypes(sector, table);
  }

  /** Each column with the type its values have in a Parquet file (with the pack's parameters, no overrides). */
  private withParquetTypes(sector: string, table: TableDescription) {
    const definition = this.packs.require(sector).tables[table.name];
    return {
      ...table,
      columns: table.columns.map((column) => ({
        ...column,
        parquet_type: parquetColumn({
          name: column.name,
          type: column.type,
          params: columnParams(definition.columns[column.name]),
          nullable: column.nullable,
        }).name,
      })),
    };
  }

  types() {
    return this.packs.describeDataTypes();
  }

  private requireSector(name: string): void {
    if (!this.packs.get(name))
      throw problem(Problems.notFound, `no sector "${name}"; the sectors: ${this.packs.names().join(', ')}`);
  }
}
