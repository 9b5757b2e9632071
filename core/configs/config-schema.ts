import type { JsonSchema } from '../events/registry.js';

/**
 * The generation config (DESIGN.md section 6) as JSON Schema 2020-12: the one document that ajv
 * validates with, that GET /v1/configs/schema serves and that the OpenAPI document publishes. Its YAML
 * form and its JSON form are the same document.
 *
 * What the schema cannot know (which sectors, tables, columns and options exist) is checked against
 * the pack registry afterwards (pack-rules.ts), with the same error shape.
 */

export const CONFIG_VERSION = 1;
export const MAX_TABLES = 50;
/** Per table, for jobs; quick generation has tighter limits of its own (core/configs/quick-limits.ts). */
export const MAX_ROWS_PER_TABLE = 100_000_000;

export const DISTRIBUTIONS = ['normal', 'lognormal', 'uniform', 'exponential', 'pareto', 'poisson'] as const;
export type Distribution = (typeof DISTRIBUTIONS)[number];

/** The parameters each distribution needs; `min` and `max` clamp any of them, and bound `uniform`. */
export const DISTRIBUTION_PARAMETERS: Record<Distribution, readonly string[]> = {
  normal: ['mean', 'stddev'],
  lognormal: ['mu', 'sigma'],
  uniform: ['min', 'max'],
  exponential: ['rate'],
  pareto: ['alpha', 'scale'],
  poisson: ['lambda'],
};

export const OUTPUT_FORMATS = ['ndjson', 'csv', 'json'] as const;
export const COMPRESSIONS = ['none', 'gzip'] as const;

export interface ColumnOverride {
  distribution?: Distribution;
  mean?: number;
  stddev?: number;
  mu?: number;
  sigma?: number;
  min?: number;
  max?: number;
  rate?: number;
  alpha?: number;
  scale?: number;
  lambda?: number;
  /** Share of rows whose value is null, 0 to 1. */
  null_rate?: number;
  /** For enum columns: relative weight of each value (values not listed keep weight 0). */
  weights?: Record<string, number>;
}

export interface TableConfig {
  name: string;
  rows: number;
  columns?: Record<string, ColumnOverride>;
  options?: Record<string, unknown>;
}

export interface GenerationConfig {
  version: 1;
  sector: string;
  seed?: number;
  locale?: string;
  tables: TableConfig[];
  output?: { format?: (typeof OUTPUT_FORMATS)[number]; compression?: (typeof COMPRESSIONS)[number] };
}

const positive = { type: 'number', exclusiveMinimum: 0 };
const finite = { type: 'number' };

const columnOverrideSchema: JsonSchema = {
  type: 'object',
  description: 'Overrides of one column. `distribution` with its parameters for numeric columns, `null_rate`, `weights` for enum columns.',
  additionalProperties: false,
  minProperties: 1,
  properties: {
    distribution: { enum: [...DISTRIBUTIONS] },
    mean: finite,
    stddev: positive,
    mu: finite,
    sigma: positive,
    min: finite,
    max: finite,
    rate: positive,
    alpha: positive,
    scale: positive,
    lambda: positive,
    null_rate: { type: 'number', minimum: 0, maximum: 1 },
    weights: {
      type: 'object',
      minProperties: 1,
      additionalProperties: { type: 'number', minimum: 0 },
    },
  },
  allOf: DISTRIBUTIONS.map((distribution) => ({
    if: { properties: { distribution: { const: distribution } }, required: ['distribution'] },
    then: { required: [...DISTRIBUTION_PARAMETERS[distribution]] },
  })),
  dependentRequired: Object.fromEntries(
    ['mean', 'stddev', 'mu', 'sigma', 'rate', 'alpha', 'scale', 'lambda'].map((parameter) => [parameter, ['distribution']]),
  ),
};

export const identifierPattern = '^[a-z][a-z0-9_]{0,62}$';

export const configSchema: JsonSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://finsynth.dev/schemas/generation-config.json',
  title: 'Generation config',
  description: 'The engine\'s generation config (YAML or JSON). Sectors, tables, columns and options are those of the catalog.',
  type: 'object',
  required: ['version', 'sector', 'tables'],
  additionalProperties: false,
  properties: {
    version: { const: CONFIG_VERSION, description: 'Format version of this document.' },
    sector: { type: 'string', pattern: identifierPattern, description: 'A sector of GET /v1/catalog.' },
    seed: { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description: 'The same seed gives the same bytes.' },
    locale: { type: 'string', pattern: '^[a-z]{2,3}(_[A-Z]{2})?$', description: 'e.g. en_GB.' },
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
        compression: { enum: [...COMPRESSIONS] },
      },
    },
  },
};
