import { DEFAULT_AS_OF } from '../generation/as-of.js';
import { DEFAULT_LOCALE } from '../generation/reference-data/locale-pools.js';
import { CONFIG_VERSION, type GenerationConfig, type TableConfig } from './config-schema.js';

export const DEFAULT_OUTPUT = {
  format: 'ndjson',
  compression: 'none',
  referenced_tables: 'include',
  report: true,
} as const;
/** Parquet readers expect snappy pages unless told otherwise: every major writer's default. */
export const DEFAULT_PARQUET_COMPRESSION = 'snappy';

/** A config in its normal form: every default written out. */
export type NormalConfig = GenerationConfig & {
  locale: string;
  as_of: string;
  output: Required<NonNullable<GenerationConfig['output']>>;
};

/**
 * The normalised form of a valid config: every default made explicit, members in one order, empty
 * members dropped. Two configs that mean the same normalise to the same JSON. A missing seed stays
 * missing: a job draws one when it is created and records it, so the config itself stays reusable.
 */
export function normaliseConfig(config: GenerationConfig): NormalConfig {
  return {
    version: CONFIG_VERSION,
    sector: config.sector,
    ...(config.seed !== undefined ? { seed: config.seed } : {}),
    locale: config.locale ?? DEFAULT_LOCALE,
    as_of: config.as_of ?? DEFAULT_AS_OF,
    tables: config.tables.map(normaliseTable),
    output: {
      format: config.output?.format ?? DEFAULT_OUTPUT.format,
      compression:
        config.output?.compression ??
        (config.output?.format === 'parquet' ? DEFAULT_PARQUET_COMPRESSION : DEFAULT_OUTPUT.compression),
      referenced_tables: config.output?.referenced_tables ?? DEFAULT_OUTPUT.referenced_tables,
      report: config.output?.report ?? DEFAULT_OUTPUT.report,
    },
  };
}

function normaliseTable(table: TableConfig): TableConfig {
  const columns = table.columns && Object.keys(table.columns).length > 0 ? { columns: table.columns } : {};
  return { name: table.name, rows: table.rows, ...columns, options: table.options ?? {} };
}
