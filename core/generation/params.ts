import { DISTRIBUTION_KEYS } from './types/numeric.js';

/**
 * A column's type parameters: its definition less the members every column has. Kept apart from the
 * manifest checks so that workers compile columns without loading the validator.
 */
const COLUMN_MEMBERS = new Set(['type', 'description', 'example', 'nullable', 'null_rate']);

export function columnParams(column: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(column).filter(([key]) => !COLUMN_MEMBERS.has(key)));
}

/** An override naming a distribution replaces the column's whole distribution (its bounds included). */
export function mergeParams(base: Record<string, unknown>, override: Record<string, unknown>): Record<string, unknown> {
  const merged = { ...base };
  if ('distribution' in override) for (const key of DISTRIBUTION_KEYS) delete merged[key];
  return { ...merged, ...override };
}
