import type { GenerationConfig } from './config-schema.js';
import type { PackCatalog } from './ports.js';

/** Whether a config delivers the tables its tables reference but it does not list (the default). */
export const deliversReferencedTables = (config: GenerationConfig): boolean =>
  config.output?.referenced_tables !== 'omit';

/**
 * The config with the tables it delivers listed: the referenced tables it does not list are added at
 * the rows given (the catalog's sizing by default), so that every reference of the result resolves.
 */
export function withReferencedTables(
  config: GenerationConfig,
  catalog: Pick<PackCatalog, 'referencedTables'>,
  referenced?: readonly { name: string; rows: number }[],
): GenerationConfig {
  if (!deliversReferencedTables(config)) return config;
  const added = referenced ?? catalog.referencedTables(config);
  if (added.length === 0) return config;
  return { ...config, tables: [...config.tables, ...added.map(({ name, rows }) => ({ name, rows }))] };
}
