import type { JsonSchema } from '../json-schema.js';
import { configSchema } from './config-schema.js';

/**
 * An overlay is a partial config: the config schema with nothing required but the `name` of each
 * table (tables merge by name), every member nullable (`null` removes it), and no rule that only a
 * whole config can meet (minimum counts, a distribution's parameters). A table of an overlay may also
 * be `{ name, remove: true }`, which removes the table of that name. The composed result is checked
 * against the full schema.
 */
export const overlaySchema: JsonSchema = withTableRemoval({
  ...partial(configSchema),
  $id: 'https://finsynth.dev/schemas/config-overlay.json',
  title: 'Config overlay',
  description:
    'A partial generation config, applied over a base by POST /v1/configs/compose. `null` removes a member; ' +
    'a table `{ name, remove: true }` removes that table.',
});

/** A table's `name` is its identity, so removing it takes a member of its own, and nothing else beside the name. */
function withTableRemoval(schema: JsonSchema): JsonSchema {
  const properties = schema.properties as Record<string, JsonSchema>;
  const [tables, nullAlternative] = properties.tables.anyOf as JsonSchema[];
  const table = tables.items as JsonSchema & { properties: Record<string, JsonSchema> };
  const members = Object.keys(table.properties).filter((member) => member !== 'name');
  const removableTable: JsonSchema = {
    ...table,
    properties: {
      ...table.properties,
      remove: {
        const: true,
        description: 'Removes the table of this name from the composed config (a no-op where there is none).',
      },
    },
    // A table removed cannot also be changed.
    dependentSchemas: { remove: { properties: Object.fromEntries(members.map((member) => [member, false])) } },
  };
  return {
    ...schema,
    properties: { ...properties, tables: { anyOf: [{ ...tables, items: removableTable }, nullAlternative] } },
  };
}

function partial(schema: JsonSchema): JsonSchema {
  const { required, minItems, minProperties, allOf, dependentRequired, $id, $schema, ...rest } = schema as Record<
    string,
    unknown
  >;
  const result: JsonSchema = { ...rest };
  const identity = Array.isArray(required) && required.includes('name') ? ['name'] : [];
  if (identity.length > 0) result.required = identity;
  if (isSchema(rest.properties)) {
    result.properties = Object.fromEntries(
      Object.entries(rest.properties).map(([name, member]) => [
        name,
        identity.includes(name) ? member : nullable(partial(member as JsonSchema)),
      ]),
    );
  }
  if (isSchema(rest.additionalProperties)) result.additionalProperties = nullable(partial(rest.additionalProperties));
  if (isSchema(rest.items)) result.items = partial(rest.items);
  return result;
}

function nullable(schema: JsonSchema): JsonSchema {
  return { anyOf: [schema, { type: 'null' }] };
}

function isSchema(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
