import { createAjv } from '../json-schema.js';
import { columnParams, isComputed } from '../generation/types/params.js';
import { checkColumnParams } from '../generation/types/param-checks.js';
import { parentsOf } from '../generation/pack-definition.js';
import { dataTypes } from '../generation/types/index.js';
import type { PackDefinition, RowsAtRate } from './sdk.js';
import { ownMember } from '../own-member.js';
import { COLUMN_DEPENDENCY_PARAMS } from '../generation/types/column-dependencies.js';

/**
 * The manifest schema every pack passes at load, then the checks a schema cannot express (column
 * parameters against their type, references to tables that exist, option defaults against their schema).
 * `checkManifest` returns the reasons a pack is refused; an empty list means it is accepted.
 */
const ajv = createAjv();

const NAME = '^[a-z][a-z0-9_]{0,39}$';

export const manifestSchema = {
  $id: 'https://finsynth.dev/schemas/pack-manifest.json',
  type: 'object',
  required: ['name', 'version', 'description', 'tables'],
  properties: {
    name: { type: 'string', pattern: NAME },
    version: { type: 'string', pattern: '^\\d+\\.\\d+\\.\\d+(-[0-9A-Za-z.-]+)?$' },
    description: { type: 'string', minLength: 1 },
    tables: {
      type: 'object',
      minProperties: 1,
      propertyNames: { pattern: NAME },
      additionalProperties: {
        type: 'object',
        required: ['description', 'default_rows', 'credits_per_1000_rows', 'columns'],
        properties: {
          description: { type: 'string', minLength: 1 },
          default_rows: { type: 'integer', minimum: 1 },
          credits_per_1000_rows: { type: 'number', exclusiveMinimum: 0 },
          per_parent: { type: 'string' },
          rows_at_rate: {
            type: 'object',
            required: ['option', 'of', 'per'],
            additionalProperties: false,
            properties: {
              option: { type: 'string' },
              of: { type: 'string' },
              per: { type: 'number', exclusiveMinimum: 0 },
            },
          },
          columns: {
            type: 'object',
            minProperties: 1,
            propertyNames: { pattern: NAME },
            additionalProperties: {
              type: 'object',
              required: ['type', 'description'],
              properties: {
                type: { enum: dataTypes.map((type) => type.name) },
                description: { type: 'string', minLength: 1 },
                nullable: { type: 'boolean' },
                null_rate: { type: 'number', minimum: 0, maximum: 1 },
                computed: { type: 'boolean' },
                draw_reshaped: { type: 'boolean' },
              },
            },
          },
          options: {
            type: 'object',
            propertyNames: { pattern: NAME },
            additionalProperties: {
              type: 'object',
              required: ['description', 'schema', 'default'],
              properties: { description: { type: 'string', minLength: 1 }, schema: { type: 'object' } },
            },
          },
        },
      },
    },
  },
} as const;

const validateShape = ajv.compile(manifestSchema);
export { columnParams };

export function checkManifest(candidate: unknown): string[] {
  if (!validateShape(candidate)) {
    return (validateShape.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message}`);
  }
  const pack = candidate as PackDefinition;
  const reasons: string[] = [];
  for (const [tableName, table] of Object.entries(pack.tables)) {
    const at = `table "${tableName}"`;
    if (table.row !== undefined && typeof table.row !== 'function') reasons.push(`${at}: row must be a function`);
    if (table.start !== undefined && typeof table.start !== 'function') reasons.push(`${at}: start must be a function`);
    if (table.rows_per_parent !== undefined && typeof table.rows_per_parent !== 'function')
      reasons.push(`${at}: rows_per_parent must be a function`);
    if (table.rows_per_parent !== undefined && table.per_parent === undefined)
      reasons.push(`${at}: rows_per_parent needs per_parent (the table whose rows it counts)`);
    if (table.per_parent !== undefined) {
      const parent = ownMember(pack.tables, table.per_parent);
      if (!parent || table.per_parent === tableName)
        reasons.push(`${at}: per_parent names no other table of the pack ("${table.per_parent}")`);
      else if (parent.per_parent)
        reasons.push(
          `${at}: its parent "${table.per_parent}" is itself generated per parent; a parent must be a flat table`,
        );
    }
    if (table.rows_at_rate) reasons.push(...rowsAtRateProblems(pack, tableName, table.rows_at_rate));
    const keys = Object.values(table.columns).filter((column) => column.type === 'id');
    if (keys.length > 1) reasons.push(`${at}: has ${keys.length} id columns; a table has at most one key`);
    for (const [columnName, column] of Object.entries(table.columns)) {
      const where = `${at}, column "${columnName}"`;
      if (column.computed === true && (column.type === 'id' || column.type === 'reference'))
        reasons.push(`${where}: a ${column.type} column cannot be computed (the engine derives keys and references)`);
      for (const problem of checkColumnParams(column.type, columnParams(column), { computed: isComputed(column) }))
        reasons.push(`${where}: ${problem}`);
      if (column.type === 'reference') {
        const target = ownMember(pack.tables, String(column.table));
        if (!target || column.table === tableName)
          reasons.push(`${where}: references no other table of the pack ("${String(column.table)}")`);
        else if (target.per_parent)
          reasons.push(
            `${where}: references "${String(column.table)}", which is generated per parent and cannot be referenced`,
          );
        else if (!Object.values(target.columns).some((c) => c.type === 'id'))
          reasons.push(`${where}: "${String(column.table)}" has no id column to reference`);
      }
      for (const dependency of COLUMN_DEPENDENCY_PARAMS) {
        const named = column[dependency];
        if (named !== undefined && !ownMember(table.columns, String(named)))
          reasons.push(`${where}: ${dependency} names no column of the table ("${String(named)}")`);
      }
    }
    if (
      table.per_parent &&
      !Object.values(table.columns).some((c) => c.type === 'reference' && c.table === table.per_parent)
    ) {
      reasons.push(`${at}: is generated per "${table.per_parent}" row but has no reference column to it`);
    }
    for (const [optionName, option] of Object.entries(table.options ?? {})) {
      try {
        if (!ajv.validate(option.schema, option.default))
          reasons.push(`${at}, option "${optionName}": its default fails its own schema (${ajv.errorsText()})`);
      } catch (error) {
        reasons.push(
          `${at}, option "${optionName}": its schema is not a valid JSON Schema (${(error as Error).message})`,
        );
      }
    }
  }
  if (reasons.length === 0 && hasReferenceCycle(pack)) reasons.push('its tables reference each other in a cycle');
  return reasons;
}

/** A rate is of a table the table references, held in an option of its own whose default sets no rate. */
function rowsAtRateProblems(pack: PackDefinition, tableName: string, rate: RowsAtRate): string[] {
  const at = `table "${tableName}", rows_at_rate`;
  const table = pack.tables[tableName];
  const reasons: string[] = [];
  if (!parentsOf(pack, tableName).includes(rate.of)) reasons.push(`${at}: "${rate.of}" is not a table it references`);
  const option = table.options ? ownMember(table.options, rate.option) : undefined;
  if (!option) reasons.push(`${at}: "${rate.option}" is not one of its options`);
  else if (typeof option.default === 'number')
    reasons.push(`${at}: the default of "${rate.option}" must set no rate (null), so that rows mean rows`);
  return reasons;
}

/** Parents must be sizable from their children, so the graph of references must be acyclic. */
function hasReferenceCycle(pack: PackDefinition): boolean {
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (table: string): boolean => {
    if (state.get(table) === 'done') return false;
    if (state.get(table) === 'visiting') return true;
    state.set(table, 'visiting');
    const cyclic = parentsOf(pack, table).some(visit);
    state.set(table, 'done');
    return cyclic;
  };
  return Object.keys(pack.tables).some(visit);
}
