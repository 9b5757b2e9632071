import { MAX_YAML_BYTES } from '../../core/configs/yaml-source.js';

/*
 * How a request names a config: `{config} | {config_yaml} | {config_id, overlays}`. The configs routes
 * (validate, estimate) and POST /v1/jobs take the same three forms, so they share these schemas. The
 * config's own rules are checked by the configs module (one `invalid-config` problem with pointers).
 */

export const anyConfig = { type: 'object', description: 'A generation config as JSON (GET /v1/configs/schema).' };
export const configYaml = { type: 'string', minLength: 1, maxLength: MAX_YAML_BYTES, description: 'The same config in YAML.' };
export const documentId = { type: 'string', minLength: 1, maxLength: 64 };
export const documentIds = { type: 'array', items: documentId, maxItems: 20 };

export const configInput = {
  oneOf: [
    { type: 'object', required: ['config'], additionalProperties: false, properties: { config: anyConfig } },
    { type: 'object', required: ['config_yaml'], additionalProperties: false, properties: { config_yaml: configYaml } },
    {
      type: 'object',
      required: ['config_id'],
      additionalProperties: false,
      properties: { config_id: documentId, overlays: { ...documentIds, description: 'Overlay ids, applied in order.' } },
    },
  ],
};
