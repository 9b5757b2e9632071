import { columnParams } from '../packs/manifest.js';
import { checkColumnParams } from '../generation/types/param-checks.js';
import type { PackRegistry } from '../packs/registry.js';
import type { PackDefinition, TableDefinition } from '../packs/sdk.js';
import { mergeParams, ratedTables, unrequestedTables } from '../generation/plan.js';
import { isComputed, overridableOf } from '../generation/types/params.js';
import type { PackCatalog, PackColumn, PackTable } from '../configs/ports.js';

/** The config machinery's view of the loaded sector packs (those the pack host accepted). */
export function packCatalog(registry: Pick<PackRegistry, 'names' | 'require'>): PackCatalog {
  const packs = registry.names().map((name) => registry.require(name));
  const sectors = new Map(
    packs.map((pack) => [pack.name, Object.keys(pack.tables).map((name) => packTable(pack, name))]),
  );
  return {
    sectorNames: () => [...sectors.keys()],
    tables: (sector) => sectors.get(sector),
    referencedTables: (config) => unrequestedTables(registry, { ...config, seed: 0 }),
    // Planning again only for a config that lists a table whose rows a rate may set (laundering motifs).
    ratedTables: (config) =>
      config.tables.some((table) => registry.require(config.sector).tables[table.name]?.rows_at_rate)
        ? ratedTables(registry, { ...config, seed: 0 })
        : [],
  };
}

function packTable(pack: PackDefinition, name: string): PackTable {
  const table: TableDefinition = pack.tables[name];
  return {
    name,
    weight: table.credits_per_1000_rows,
    columns: Object.entries(table.columns).map(([columnName, definition]): PackColumn => {
      const params = columnParams(definition);
      return {
        name: columnName,
        type: definition.type,
        overridable: overridableOf(definition),
        computed: isComputed(definition),
        checkOverride: (override) => {
          const merged = mergeParams(params, override);
          return [
            ...checkColumnParams(definition.type, merged, { computed: isComputed(definition) }),
            ...unknownWeights(merged),
          ];
        },
      };
    }),
    optionsSchema: {
      type: 'object',
      additionalProperties: false,
      properties: Object.fromEntries(
        Object.entries(table.options ?? {}).map(([option, definition]) => [option, definition.schema]),
      ),
    },
  };
}

/** Weights must name values the column can take (its `values`, or its `codes`); the type's schema cannot say so. */
function unknownWeights(params: Record<string, unknown>): string[] {
  const values = (params.values ?? params.codes) as string[] | undefined;
  const weights = params.weights as Record<string, number> | undefined;
  if (!values || !weights) return [];
  const unknown = Object.keys(weights).filter((value) => !values.includes(value));
  const messages = unknown.length
    ? [`weights name values the column cannot take: ${unknown.join(', ')} (values: ${values.join(', ')})`]
    : [];
  if (!values.some((value) => (weights[value] ?? 0) > 0))
    messages.push('weights must give at least one value a weight above 0');
  return messages;
}
