import { MAX_YAML_BYTES } from '../../../core/configs/yaml-source.js';

/*
 * How a request names a config: `{config} | {config_yaml} | {config_id, overlays}`. The configs routes
 * (validate, estimate) and POST /v1/jobs take the same three forms, so they share these schemas. The
 * config's own rules are checked by the configs module (one `invalid-config` problem with pointers).
 */

/** The config the reference page's samples send: a job of a thousand card transactions, as gzipped CSV. */
export const EXAMPLE_CONFIG = {
  version: 1,
  sector: 'cards',
  seed: 42,
  tables: [{ name: 'transactions', rows: 1000 }],
  output: { format: 'csv', compression: 'gzip' },
};
export const EXAMPLE_CONFIG_YAML =
  'version: 1\nsector: cards\nseed: 42\ntables:\n  - name: transactions\n    rows: 1000\n' +
  'output: { format: csv, compression: gzip }\n';

export const anyConfig = {
  type: 'object',
  description: 'A generation config as JSON (GET /v1/configs/schema).',
  examples: [EXAMPLE_CONFIG],
};
/**
 * The body limit of a request that carries a YAML config, raw or as a JSON string: room for a YAML at its own
 * limit escaped in JSON (a newline or a quote takes two bytes, a \u escape at most three times its UTF-8), so that
 * a YAML too large is answered as such (413 `yaml-too-large`, with its size), not by the anonymous body limit.
 * The YAML reader counts that limit in UTF-8 bytes; the schemas' `maxLength` counts characters and would answer
 * 400 first.
 */
export const MAX_CONFIG_BODY_BYTES = 4 * MAX_YAML_BYTES;
const yamlLimit = `At most ${MAX_YAML_BYTES} bytes of UTF-8 (413 \`yaml-too-large\` above).`;

export const configYaml = {
  type: 'string',
  minLength: 1,
  description: `The same config in YAML. ${yamlLimit}`,
  examples: [EXAMPLE_CONFIG_YAML],
};
export const yamlBody = {
  type: 'string',
  description: `A generation config in YAML (GET /v1/configs/schema). ${yamlLimit}`,
  examples: [EXAMPLE_CONFIG_YAML],
};
export const documentId = { type: 'string', minLength: 1, maxLength: 64, examples: ['cfg_3b9d0f6a2c8e4b7d1a5f9e20'] };
export const documentIds = { type: 'array', items: documentId, maxItems: 20 };

export const configInput = {
  oneOf: [
    { type: 'object', required: ['config'], additionalProperties: false, properties: { config: anyConfig } },
    { type: 'object', required: ['config_yaml'], additionalProperties: false, properties: { config_yaml: configYaml } },
    {
      type: 'object',
      required: ['config_id'],
      additionalProperties: false,
      properties: {
        config_id: documentId,
        overlays: { ...documentIds, description: 'Overlay ids, applied in order.' },
      },
    },
  ],
};
