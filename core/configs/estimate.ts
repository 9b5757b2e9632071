import { tableCredits } from '../pricing/table-credits.js';
import type { GenerationConfig } from './config-schema.js';
import { findTable, type PackCatalog } from './ports.js';
import { withReferencedTables } from './referenced-tables.js';

export interface TableEstimate {
  name: string;
  rows: number;
  credits_per_1000_rows: number;
  credits: number;
}

export interface ConfigEstimate {
  rows: number;
  credits: number;
  tables: TableEstimate[];
}

/**
 * What a valid config costs: the one price rule (core/pricing/table-credits.ts) per table delivered,
 * summed: the tables it lists (at the rows a rate option sets, where one does) and, unless
 * `output.referenced_tables` is `omit`, those they reference.
 */
export function estimateConfig(config: GenerationConfig, catalog: PackCatalog): ConfigEstimate {
  const rated = new Map(catalog.ratedTables(config).map(({ name, rows }) => [name, rows]));
  const tables = withReferencedTables(config, catalog).tables.map((table) => {
    const rows = rated.get(table.name) ?? table.rows;
    const packTable = findTable(catalog, config.sector, table.name);
    if (!packTable)
      throw new Error(`estimateConfig: ${config.sector}.${table.name} is not in the catalog; validate first`);
    return {
      name: table.name,
      rows,
      credits_per_1000_rows: packTable.weight,
      credits: tableCredits(rows, packTable.weight),
    };
  });
  return {
    rows: tables.reduce((sum, table) => sum + table.rows, 0),
    credits: tables.reduce((sum, table) => sum + table.credits, 0),
    tables,
  };
}
