import type { JsonSchema } from '../../core/json-schema.js';

const isSchema = (value: unknown): value is JsonSchema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A value that stands for a string nothing better is known of: its name, so that a reader sees what to put. */
const placeholder = (name: string): string => `<${name}>`;

/**
 * An example of a value of `schema`, from the schema's own annotations: its first `examples` (or
 * `example`), its `const`, `default` or first `enum` member; an object is built from its required members
 * and the optional ones that carry an example, an array holds one example item. Where a schema says
 * nothing usable, a string stands for the value's name (`<id>`), so that a sample never invents data.
 */
export function exampleValue(schema: unknown, name = 'value'): unknown {
  if (!isSchema(schema)) return placeholder(name);
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if ('example' in schema) return schema.example;
  if ('const' in schema) return schema.const;
  if ('default' in schema) return schema.default;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  for (const keyword of ['oneOf', 'anyOf'] as const) {
    const variants = schema[keyword];
    if (Array.isArray(variants) && variants.length > 0) return exampleValue(variants[0], name);
  }
  const type = Array.isArray(schema.type) ? schema.type.find((candidate) => candidate !== 'null') : schema.type;
  if (type === 'object' || isSchema(schema.properties)) return exampleObject(schema);
  if (type === 'array') return [exampleValue(schema.items, name)];
  if (type === 'integer' || type === 'number') return typeof schema.minimum === 'number' ? schema.minimum : 1;
  if (type === 'boolean') return true;
  return placeholder(name);
}

function exampleObject(schema: JsonSchema): Record<string, unknown> {
  const properties = isSchema(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
  const example: Record<string, unknown> = {};
  for (const [member, property] of Object.entries(properties)) {
    const illustrated = isSchema(property) && (Array.isArray(property.examples) || 'example' in property);
    if (required.has(member) || illustrated) example[member] = exampleValue(property, member);
  }
  return example;
}
