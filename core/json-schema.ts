import { Ajv2020, type Options } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

/**
 * Every JSON Schema in the service (requests, configs, events, pack manifests, pricing) is checked by
 * the same kind of validator: draft 2020-12, all errors reported, formats (date-time, uri, …) enforced,
 * and unknown keywords tolerated so that schemas can carry OpenAPI annotations.
 */
export function createAjv(options: Options = {}): Ajv2020 {
  const ajv = new Ajv2020({ allErrors: true, strict: false, ...options });
  addFormats.default(ajv);
  return ajv;
}
