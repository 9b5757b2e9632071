/** The parameters by which a column reads another column of its row: the engine draws that one first. */
export const COLUMN_DEPENDENCY_PARAMS = [
  'currency_column',
  'iban_column',
  'network_column',
  'country_column',
  'name_column',
] as const;

/** The columns a column's parameters name, in the order of COLUMN_DEPENDENCY_PARAMS. */
export function columnDependencies(params: Record<string, unknown>): string[] {
  return COLUMN_DEPENDENCY_PARAMS.flatMap((param) => (params[param] === undefined ? [] : [String(params[param])]));
}

/**
 * The order to draw a table's columns in: as declared, but a column after every column it depends on, so that
 * `country_column: country` works on a name declared before the country. Stable: a table whose columns already
 * follow their dependencies keeps its declared order (and its bytes). A cycle is cut where it is met: each
 * column is placed once.
 */
export function drawOrder<T extends { name: string; dependsOn: readonly string[] }>(columns: readonly T[]): T[] {
  const byName = new Map(columns.map((column) => [column.name, column]));
  const placed = new Set<string>();
  const visiting = new Set<string>();
  const order: T[] = [];
  const place = (column: T): void => {
    if (placed.has(column.name) || visiting.has(column.name)) return;
    visiting.add(column.name);
    for (const name of column.dependsOn) {
      const dependency = byName.get(name);
      if (dependency) place(dependency);
    }
    visiting.delete(column.name);
    placed.add(column.name);
    order.push(column);
  };
  for (const column of columns) place(column);
  return order;
}
