import fc from 'fast-check';

export type Schema = Record<string, unknown>;

/**
 * Values that the schema alone would almost never produce (a sector that exists, a saved config's
 * id), offered by member or parameter name beside what the schema gives, so that generated requests
 * reach past the first lookup.
 */
export type Hints = Record<string, fc.Arbitrary<unknown>>;

/** Upper bounds that keep generated values small: the mutations, not the valid values, go to the limits. */
const MAX_STRING = 40;
const MAX_ITEMS = 4;
const MAX_EXTRA_MEMBERS = 3;
const MAX_DEPTH = 5;

const asSchema = (value: unknown): Schema => (typeof value === 'object' && value !== null ? (value as Schema) : {});
const numberOr = (value: unknown, fallback: number): number => (typeof value === 'number' ? value : fallback);

function integers(schema: Schema): fc.Arbitrary<number> {
  const min = numberOr(schema.minimum, Number.MIN_SAFE_INTEGER) + (typeof schema.exclusiveMinimum === 'number' ? 1 : 0);
  const max = numberOr(schema.maximum, Number.MAX_SAFE_INTEGER) - (typeof schema.exclusiveMaximum === 'number' ? 1 : 0);
  const low = Math.max(min, -1000);
  const small = fc.integer({ min: low, max: Math.max(low, Math.min(max, low + 1000)) });
  const any = fc.bigInt({ min: BigInt(min), max: BigInt(max) }).map(Number);
  return fc.oneof({ arbitrary: small, weight: 3 }, { arbitrary: any, weight: 1 }, fc.constantFrom(min, max));
}

function numbers(schema: Schema): fc.Arbitrary<number> {
  const min =
    typeof schema.minimum === 'number'
      ? schema.minimum
      : typeof schema.exclusiveMinimum === 'number'
        ? schema.exclusiveMinimum
        : undefined;
  const max =
    typeof schema.maximum === 'number'
      ? schema.maximum
      : typeof schema.exclusiveMaximum === 'number'
        ? schema.exclusiveMaximum
        : undefined;
  return fc.double({
    min,
    max,
    minExcluded: typeof schema.exclusiveMinimum === 'number',
    maxExcluded: typeof schema.exclusiveMaximum === 'number',
    noNaN: true,
    noDefaultInfinity: true,
  });
}

function strings(schema: Schema): fc.Arbitrary<string> {
  const minLength = numberOr(schema.minLength, 0);
  const maxLength = Math.max(minLength, Math.min(numberOr(schema.maxLength, MAX_STRING), MAX_STRING));
  if (schema.format === 'date-time') {
    return fc
      .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true })
      .map((date) => date.toISOString());
  }
  if (typeof schema.pattern === 'string') {
    const limit = numberOr(schema.maxLength, Infinity);
    return fc
      .stringMatching(new RegExp(schema.pattern))
      .filter((text) => text.length >= minLength && text.length <= limit);
  }
  return fc.oneof(fc.string({ minLength, maxLength }), fc.string({ minLength, maxLength, unit: 'grapheme' }));
}

function objects(schema: Schema, hints: Hints, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const properties = asSchema(schema.properties);
  const names = Object.keys(properties);
  const required = (Array.isArray(schema.required) ? (schema.required as string[]) : []).filter(
    (name) => name in properties,
  );
  const minProperties = numberOr(schema.minProperties, 0);
  const model = Object.fromEntries(
    names.map((name) => [name, arbitraryOf(asSchema(properties[name]), hints, name, depth + 1)]),
  );
  // At least one member when the schema asks for one: a member made required, not a filter (fast-check
  // often draws none).
  const record: fc.Arbitrary<Record<string, unknown>> =
    minProperties > 0 && required.length === 0 && names.length > 0
      ? fc.constantFrom(...names).chain((name) => fc.record(model, { requiredKeys: [name] }))
      : fc.record(model, { requiredKeys: required });
  const additional = schema.additionalProperties;
  let result = record;
  if (additional !== false && depth < MAX_DEPTH) {
    const keys =
      typeof asSchema(schema.propertyNames).pattern === 'string'
        ? strings(asSchema(schema.propertyNames))
        : fc.string({ maxLength: 12 });
    const values =
      additional === undefined || additional === true
        ? fc.jsonValue({ maxDepth: 2 })
        : arbitraryOf(asSchema(additional), hints, undefined, depth + 1);
    const minKeys = names.length === 0 ? minProperties : 0;
    const extra = fc.dictionary(
      keys.filter((name) => !(name in properties)),
      values,
      { minKeys, maxKeys: Math.max(minKeys, MAX_EXTRA_MEMBERS) },
    );
    result = fc.tuple(record, extra).map(([known, more]) => ({ ...more, ...known }));
  }
  const not = asSchema(schema.not);
  const forbidden = Array.isArray(not.required) ? (not.required as string[]) : undefined;
  return forbidden ? result.filter((value) => !forbidden.every((name) => name in value)) : result;
}

function arrays(schema: Schema, hints: Hints, name: string | undefined, depth: number): fc.Arbitrary<unknown[]> {
  // Hints for the items of an array named `overlays` are under `overlays[]`.
  const items = arbitraryOf(asSchema(schema.items), hints, name === undefined ? undefined : `${name}[]`, depth + 1);
  const minLength = numberOr(schema.minItems, 0);
  const maxLength = Math.max(minLength, Math.min(numberOr(schema.maxItems, MAX_ITEMS), MAX_ITEMS));
  return schema.uniqueItems
    ? fc.uniqueArray(items, { minLength, maxLength, selector: (item) => JSON.stringify(item) })
    : fc.array(items, { minLength, maxLength });
}

function ofType(
  type: unknown,
  schema: Schema,
  hints: Hints,
  name: string | undefined,
  depth: number,
): fc.Arbitrary<unknown> {
  switch (type) {
    case 'integer':
      return integers(schema);
    case 'number':
      return numbers(schema);
    case 'string':
      return strings(schema);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return arrays(schema, hints, name, depth);
    case 'object':
      return objects(schema, hints, depth);
    default:
      return depth < MAX_DEPTH ? fc.jsonValue({ maxDepth: 2 }) : fc.constant(null);
  }
}

/**
 * Values valid for the JSON Schema (draft 2020-12, the keywords the service's documents use: type,
 * const, enum, oneOf, anyOf, properties, required, additionalProperties, propertyNames,
 * minProperties, not-required, items, min/maxItems, uniqueItems, string lengths, pattern, date-time,
 * numeric bounds). `if`/`then` and `allOf` are not followed: what they add is left to the service
 * to refuse, which is as good a test. `name` is the member or parameter the value is for.
 */
export function arbitraryOf(schema: Schema, hints: Hints = {}, name?: string, depth = 0): fc.Arbitrary<unknown> {
  const fromSchema = fromSchemaAlone(schema, hints, name, depth);
  const hint = name === undefined ? undefined : hints[name];
  return hint ? fc.oneof({ arbitrary: hint, weight: 3 }, { arbitrary: fromSchema, weight: 1 }) : fromSchema;
}

function fromSchemaAlone(schema: Schema, hints: Hints, name: string | undefined, depth: number): fc.Arbitrary<unknown> {
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  const branches = (schema.oneOf ?? schema.anyOf) as Schema[] | undefined;
  if (Array.isArray(branches)) return fc.oneof(...branches.map((branch) => arbitraryOf(branch, hints, name, depth)));
  if (Array.isArray(schema.type))
    return fc.oneof(...(schema.type as unknown[]).map((type) => ofType(type, schema, hints, name, depth)));
  const type = schema.type ?? (schema.properties ? 'object' : schema.items ? 'array' : undefined);
  return ofType(type, schema, hints, name, depth);
}
