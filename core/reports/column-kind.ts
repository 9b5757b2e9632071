/** How the report describes a column: by the statistics that mean something for its type. */
export type ColumnKind = 'key' | 'reference' | 'number' | 'time' | 'category' | 'text';

const KINDS: Readonly<Record<string, ColumnKind>> = {
  id: 'key',
  reference: 'reference',
  integer: 'number',
  decimal: 'number',
  money: 'number',
  date: 'time',
  timestamp: 'time',
  enum: 'category',
  boolean: 'category',
  currency: 'category',
  country: 'category',
  mcc: 'category',
  card_network: 'category',
};

export function columnKind(type: string): ColumnKind {
  return KINDS[type] ?? 'text';
}

/**
 * Times are sketched as their distance from this origin (the column's `from`, else the epoch): the sketch's
 * error is relative, so a quantile of a time is then within 1 % of its distance from the range's start.
 */
export function timeOrigin(type: string, params: Record<string, unknown>): number {
  if (columnKind(type) !== 'time' || typeof params.from !== 'string') return 0;
  const origin = Date.parse(params.from);
  return Number.isFinite(origin) ? origin : 0;
}
