import type { JsonSchema } from '../json-schema.js';
import { distributionSchema } from '../generation/random/distributions.js';
import { dataTypes } from '../generation/types/index.js';
import { AS_OF_MAX, AS_OF_MIN, AS_OF_PATTERN, DEFAULT_AS_OF } from '../generation/as-of.js';

/**
 * The generation config (docs/configs.md) as JSON Schema 2020-12: the one document that ajv
 * validates with, that GET /v1/configs/schema serves and that the OpenAPI document publishes. Its YAML
 * form and its JSON form are the same document.
 *
 * What the schema cannot know (which sectors, tables, columns and options exist) is checked against
 * the pack registry afterwards (pack-rules.ts), with the same error shape.
 */

export const CONFIG_VERSION = 1;
export const MAX_TABLES = 50;
/** Per table, for jobs; quick generation has tighter limits of its own (core/quick/quick-request.ts). */
export const MAX_ROWS_PER_TABLE = 100_000_000;

/** The numeric distributions of the engine, with the parameters each needs (from its own schema). */
export const DISTRIBUTION_PARAMETERS: Record<string, readonly string[]> = Object.fromEntries(
  distributionSchema.oneOf.map((variant) => [
    variant.properties.distribution.const,
    variant.required.filter((member) => member !== 'distribution'),
  ]),
);

export const OUTPUT_FORMATS = ['ndjson', 'csv', 'json', 'parquet'] as const;
/** snappy and zstd compress a Parquet file's pages; the text formats are stored as they are or gzip-compressed. */
export const COMPRESSIONS = ['none', 'gzip', 'snappy', 'zstd'] as const;
export const TEXT_COMPRESSIONS = ['none', 'gzip'] as const;
export const REFERENCED_TABLES = ['include', 'omit'] as const;

/**
 * Overrides of one column: the parameters its data type lets a config change (GET /v1/catalog/types
 * lists them as `overridable`: a distribution and its parameters, enum weights, …) and `null_rate`.
 */
export type ColumnOverride = Record<string, unknown> & { null_rate?: number; distribution?: string };

export interface TableConfig {
  name: string;
  rows: number;
  columns?: Record<string, ColumnOverride>;
  options?: Record<string, unknown>;
}

export type GenerationConfig = {
  version: 1;
  sector: string;
  seed?: number;
  locale?: string;
  as_of?: string;
  tables: TableConfig[];
  output?: {
    format?: (typeof OUTPUT_FORMATS)[number];
    compression?: (typeof COMPRESSIONS)[number];
    referenced_tables?: (typeof REFERENCED_TABLES)[number];
    report?: boolean;
  };
};

/** Every parameter that some data type lets a config override, with the schema that type gives it. */
const overridableParameters: Record<string, JsonSchema> = Object.fromEntries(
  dataTypes.flatMap((type) =>
    type.overridable.map((name) => [name, ((type.params.properties ?? {}) as Record<string, JsonSchema>)[name] ?? {}]),
  ),
);

export const columnOverrideSchema: JsonSchema = {
  type: 'object',
  description:
    'Overrides of one column: parameters its data type lists as `overridable` in GET /v1/catalog/types (a ' +
    'distribution and its parameters, enum weights, …), and `null_rate` (any column but keys and references).',
  additionalProperties: false,
  minProperties: 1,
  properties: {
    ...overridableParameters,
    null_rate: {
      type: 'number',
      minimum: 0,
      maximum: 1,
      description: "The chance that each row's value is replaced with null; a null the pack writes itself stays null.",
    },
  },
  allOf: Object.entries(DISTRIBUTION_PARAMETERS).map(([distribution, parameters]) => ({
    if: { properties: { distribution: { const: distribution } }, required: ['distribution'] },
    // The parameters are named in `properties` too, as the OpenAPI document's linter asks; `true` and
    // `additionalProperties: true` check nothing more than the members above already are.
    then: {
      required: [...parameters],
      properties: Object.fromEntries(parameters.map((name) => [name, true])),
      additionalProperties: true,
    },
  })),
};

/** The dataset's as-of date: no event after it; what falls due later is scheduled. */
export const asOfSchema: JsonSchema = {
  type: 'string',
  format: 'date',
  // The years 2000 to 2100 (AS_OF_MIN to AS_OF_MAX) as a pattern: plain JSON Schema, which OpenAPI tools read,
  // where ajv-formats' formatMinimum would not be.
  pattern: AS_OF_PATTERN,
  description:
    `The as-of date of the dataset (YYYY-MM-DD, from ${AS_OF_MIN} to ${AS_OF_MAX}): no event falls after it, ` +
    `and instalments or payments due later are scheduled. A fixed default (${DEFAULT_AS_OF}), not today, so ` +
    'that a config and seed give the same bytes on any day.',
};

export const identifierPattern = '^[a-z][a-z0-9_]{0,62}$';
/** A faker locale name (en_GB, de, en_AU_ocker); which ones exist is checked against the engine. */
export const localePattern = '^[a-z]{2,3}(_[A-Za-z]+){0,2}$';

export const configSchema: JsonSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://finsynth.dev/schemas/generation-config.json',
  title: 'Generation config',
  description:
    "The engine's generation config (YAML or JSON). Sectors, tables, columns and options are those of the catalog.",
  type: 'object',
  required: ['version', 'sector', 'tables'],
  additionalProperties: false,
  properties: {
    version: { const: CONFIG_VERSION, description: 'Format version of this document.' },
    sector: { type: 'string', pattern: identifierPattern, description: 'A sector of GET /v1/catalog.' },
    seed: {
      type: 'integer',
      minimum: 0,
      maximum: Number.MAX_SAFE_INTEGER,
      description: 'The same seed gives the same bytes.',
    },
    locale: { type: 'string', pattern: localePattern, description: 'e.g. en_GB.' },
    as_of: asOfSchema,
    tables: {
      type: 'array',
      minItems: 1,
      maxItems: MAX_TABLES,
      items: {
        type: 'object',
        required: ['name', 'rows'],
        additionalProperties: false,
        properties: {
          name: { type: 'string', pattern: identifierPattern },
          rows: { type: 'integer', minimum: 1, maximum: MAX_ROWS_PER_TABLE },
          columns: {
            type: 'object',
            description: 'Per-column overrides, by column name.',
            propertyNames: { pattern: identifierPattern },
            additionalProperties: columnOverrideSchema,
          },
          options: { type: 'object', description: "The pack table's options (see its options schema in the catalog)." },
        },
      },
    },
    output: {
      type: 'object',
      description: 'Result files of jobs.',
      additionalProperties: false,
      properties: {
        format: { enum: [...OUTPUT_FORMATS] },
        compression: {
          enum: [...COMPRESSIONS],
          description:
            'Text formats: none (default) or gzip (the file is stored gzip-compressed). Parquet: snappy ' +
            "(default), zstd, gzip or none, the compression of the file's pages (the file itself is not compressed).",
        },
        referenced_tables: {
          enum: [...REFERENCED_TABLES],
          description:
            'include (default): a table that a listed table references but the config does not list is ' +
            'generated and delivered too, sized to fit, and priced; omit: only the listed tables are ' +
            'delivered, and their references point at rows that are not.',
        },
        report: {
          type: 'boolean',
          description:
            'true (default): the job also makes its conformance report (GET /v1/jobs/{id}/report, ' +
            'docs/reports.md) while it writes its files, which costs time on every row; false: no report.',
        },
      },
      // snappy and zstd only for Parquet: a text file asks for none or gzip.
      if: { properties: { format: { const: 'parquet' } }, required: ['format'] },
      then: { properties: { compression: true } },
      else: { properties: { compression: { enum: [...TEXT_COMPRESSIONS] } } },
    },
  },
};
