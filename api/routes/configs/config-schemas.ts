import { configSchema } from '../../../core/configs/config-schema.js';
import { overlaySchema } from '../../../core/configs/overlay-schema.js';
import { MAX_NAME_LENGTH } from '../../../core/configs/document-decider.js';
import type { JsonSchema } from '../../../core/json-schema.js';
import { MAX_REPORTED_ERRORS } from '../../../core/bounded-validation.js';
import { TRUNCATED } from '../../http/schemas.js';

/*
 * The schemas the configs routes answer with. A config inside an answer is published with its full
 * schema (also served alone by GET /v1/configs/schema), without the `$id` and dialect of a document.
 */

function embedded({ $id: _id, $schema: _dialect, ...schema }: JsonSchema): JsonSchema {
  return schema;
}
export const embeddedConfig = embedded(configSchema);
export const embeddedOverlay = embedded(overlaySchema);

export const YAML_TYPES = ['application/yaml', 'text/yaml'] as const;
export const name = { type: 'string', minLength: 1, maxLength: MAX_NAME_LENGTH, examples: ['nightly cards'] };

const issue = {
  type: 'object',
  required: ['pointer', 'message'],
  properties: {
    pointer: { type: 'string' },
    message: { type: 'string' },
    line: { type: 'integer' },
    column: { type: 'integer' },
  },
};

export const estimateSchema = {
  type: 'object',
  required: ['rows', 'credits', 'tables'],
  properties: {
    rows: { type: 'integer' },
    credits: { type: 'integer', description: 'What a live key is charged.' },
    tables: {
      type: 'array',
      items: {
        type: 'object',
        required: ['name', 'rows', 'credits_per_1000_rows', 'credits'],
        properties: {
          name: { type: 'string' },
          rows: { type: 'integer' },
          credits_per_1000_rows: { type: 'number' },
          credits: { type: 'integer' },
        },
      },
    },
    mode: { enum: ['live', 'test'] },
    credits_available: { type: 'integer' },
    balance_covers: {
      type: 'boolean',
      description: 'Whether the balance covers it; always true with a test key, which is never charged.',
    },
  },
};

export const validationSchema = {
  type: 'object',
  required: ['valid', 'errors', 'config', 'estimate'],
  properties: {
    valid: { type: 'boolean' },
    errors: { type: 'array', items: issue, description: `At most ${MAX_REPORTED_ERRORS} (see \`errors_truncated\`).` },
    errors_truncated: { const: true, description: TRUNCATED },
    errors_total: {
      type: 'integer',
      minimum: 1,
      description: 'With `errors_truncated`: how many were found, when the config was checked for all of them.',
    },
    config: {
      oneOf: [embeddedConfig, { type: 'null' }],
      description: 'The normalised config (defaults explicit); null when invalid.',
    },
    estimate: { oneOf: [estimateSchema, { type: 'null' }] },
  },
};
