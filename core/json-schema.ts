import { Ajv2020, type Options } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { fullFormats } from 'ajv-formats/dist/formats.js';

/** A JSON Schema document, as the validators take it. */
export type JsonSchema = Record<string, unknown>;

/**
 * Every JSON Schema in the service (requests, configs, events, pack manifests, pricing) is checked by
 * the same kind of validator: draft 2020-12, all errors reported, formats (date-time, uri, …) enforced,
 * and unknown keywords tolerated so that schemas can carry OpenAPI annotations.
 */
export function createAjv(options: Options = {}): Ajv2020 {
  const ajv = new Ajv2020({ allErrors: true, strict: false, ...options });
  addFormats.default(ajv);
  ajv.addFormat('date-time', { type: 'string', validate: isInstant, compare: rfc3339.compare });
  return ajv;
}

const rfc3339 = fullFormats['date-time'] as {
  validate: (text: string) => boolean;
  compare: (a: string, b: string) => number | undefined;
};
const FIRST_INSTANT = Date.parse('0000-01-01T00:00:00Z');
const LAST_INSTANT = Date.parse('9999-12-31T23:59:59.999Z');

/**
 * RFC 3339 allows what no Date holds: a leap second (23:59:60) and, through an offset, a year past 9999.
 * Either would make `new Date(text).toISOString()` throw or print an expanded year, so a date-time must
 * also be an instant from year 0 to 9999.
 */
function isInstant(text: string): boolean {
  if (!rfc3339.validate(text)) return false;
  const instant = Date.parse(text);
  return instant >= FIRST_INSTANT && instant <= LAST_INSTANT;
}
