import { dataTypeByName } from './index.js';
import { DISTRIBUTION_KEYS } from './numeric.js';

/**
 * A column's type parameters: its definition less the members every column has. Kept apart from the
 * manifest checks so that workers compile columns without loading the validator.
 */
const COLUMN_MEMBERS = new Set([
  'type',
  'description',
  'example',
  'nullable',
  'null_rate',
  'computed',
  'draw_reshaped',
]);

export function columnParams(column: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(column).filter(([key]) => !COLUMN_MEMBERS.has(key)));
}

const NUMERIC_TYPES = new Set(['integer', 'decimal', 'money']);

/**
 * Whether the table's generator always sets the column, so that nothing draws it: `computed: true`, or
 * what a type cannot draw (a number with neither a distribution nor a [min, max] range, a string without
 * values). A computed column needs none of its type's drawing parameters and takes no override but null_rate.
 */
export function isComputed(column: Record<string, unknown>): boolean {
  if (column.computed === true) return true;
  if (NUMERIC_TYPES.has(String(column.type)))
    return column.distribution === undefined && (column.min === undefined || column.max === undefined);
  return column.type === 'string' && column.values === undefined;
}

/**
 * What a generation config may override in a column: its type's overridable parameters (none for keys,
 * references and computed columns, whose values the engine or the generator decide), and null_rate (but
 * for keys and references, which must stay valid).
 */
export function overridableOf(column: Record<string, unknown>): string[] {
  if (column.type === 'id' || column.type === 'reference') return [];
  return [...(isComputed(column) ? [] : (dataTypeByName.get(String(column.type))?.overridable ?? [])), 'null_rate'];
}

/** An override naming a distribution replaces the column's whole distribution (its bounds included). */
export function mergeParams(base: Record<string, unknown>, override: Record<string, unknown>): Record<string, unknown> {
  const merged = { ...base };
  if ('distribution' in override) for (const key of DISTRIBUTION_KEYS) delete merged[key];
  return { ...merged, ...override };
}
