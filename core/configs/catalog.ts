import { describeDataType, dataTypes } from '../generation/types/index.js';
import { DEFAULT_LOCALE } from '../generation/locale-pools.js';
import { columnParams, parentsOf } from '../packs/manifest.js';
import type { PackDefinition, TableDefinition } from '../packs/sdk.js';
import { Problems, problem } from '../problems.js';
import { MAX_ROWS_PER_TABLE, MAX_TABLES } from './config-schema.js';
import { QUICK_LIMITS } from './quick-request.js';

/**
 * The catalog of GET /v1/catalog…: what the loaded sector packs offer, as JSON. Built once from the
 * packs the host accepted; the views are plain data, so their ETags are stable while the packs are.
 */
export class Catalog {
  private readonly packs: ReadonlyMap<string, PackDefinition>;

  constructor(packs: readonly PackDefinition[]) {
    this.packs = new Map(packs.map((pack) => [pack.name, pack]));
  }

  overview() {
    return {
      sectors: [...this.packs.values()].map((pack) => this.sectorView(pack)),
      types: this.types(),
      limits: LIMITS,
      default_locale: DEFAULT_LOCALE,
    };
  }

  sector(name: string) {
    return this.sectorView(this.pack(name));
  }

  table(sector: string, name: string) {
    const pack = this.pack(sector);
    const table = pack.tables[name];
    if (!table) throw problem(Problems.notFound, `the sector "${sector}" has no table "${name}"; its tables: ${Object.keys(pack.tables).join(', ')}`);
    return {
      ...this.tableSummary(pack, name, table),
      per_parent: table.per_parent ?? null,
      columns: Object.entries(table.columns).map(([column, definition]) => ({
        name: column,
        type: definition.type,
        description: definition.description,
        nullable: definition.nullable === true,
        null_rate: definition.null_rate ?? null,
        example: definition.example ?? null,
        params: columnParams(definition),
        references: definition.type === 'reference' ? String(definition.table) : null,
      })),
      options: Object.entries(table.options ?? {}).map(([option, definition]) => ({
        name: option,
        description: definition.description,
        schema: definition.schema,
        default: definition.default,
      })),
    };
  }

  types() {
    return dataTypes.map(describeDataType);
  }

  private pack(name: string): PackDefinition {
    const pack = this.packs.get(name);
    if (!pack) throw problem(Problems.notFound, `no sector "${name}"; the sectors: ${[...this.packs.keys()].join(', ')}`);
    return pack;
  }

  private sectorView(pack: PackDefinition) {
    return {
      name: pack.name,
      version: pack.version,
      description: pack.description,
      tables: Object.entries(pack.tables).map(([name, table]) => this.tableSummary(pack, name, table)),
    };
  }

  private tableSummary(pack: PackDefinition, name: string, table: TableDefinition) {
    return {
      name,
      description: table.description,
      credits_per_1000_rows: table.credits_per_1000_rows,
      default_rows: table.default_rows,
      references: parentsOf(pack, name),
    };
  }
}

/** What one request may ask for: quick generation answers in the exchange, jobs write files. */
export const LIMITS = {
  quick: QUICK_LIMITS,
  jobs: { max_rows_per_table: MAX_ROWS_PER_TABLE, max_tables: MAX_TABLES },
} as const;
