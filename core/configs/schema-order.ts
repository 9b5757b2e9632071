import type { JsonSchema } from '../json-schema.js';

/**
 * `value` with the members of every object in the order its schema lists them, and the members it
 * does not list (column names, option names, weights) after them in name order. The store keeps a
 * document as canonical JSON (keys sorted), so a document read back has lost the order it was saved
 * in: every answer that shows one puts it in this order, the same whether it was just written or
 * read back after a restart.
 */
export function inSchemaOrder(schema: JsonSchema, value: unknown): unknown {
  const shape = branchFor(schema, value);
  if (Array.isArray(value)) return value.map((item) => inSchemaOrder(asSchema(shape.items), item));
  if (!isObject(value)) return value;
  const properties = asSchema(shape.properties);
  const listed = Object.keys(properties).filter((name) => Object.hasOwn(value, name));
  const others = Object.keys(value)
    .filter((name) => !Object.hasOwn(properties, name))
    .sort();
  const other = asSchema(shape.additionalProperties);
  return Object.fromEntries(
    [...listed, ...others].map((name) => [
      name,
      inSchemaOrder(Object.hasOwn(properties, name) ? asSchema(properties[name]) : other, value[name]),
    ]),
  );
}

/**
 * Of `anyOf`/`oneOf` alternatives (an overlay's members are `anyOf: [schema, null]`), the one that
 * describes a value of this kind.
 */
function branchFor(schema: JsonSchema, value: unknown): JsonSchema {
  const alternatives = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (!alternatives) return schema;
  const kind = Array.isArray(value) ? 'array' : isObject(value) ? 'object' : undefined;
  return alternatives.find((alternative) => kind !== undefined && alternative.type === kind) ?? schema;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const asSchema = (value: unknown): JsonSchema => (isObject(value) ? value : {});
