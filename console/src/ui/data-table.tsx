/** A value as text: strings as they are (never as HTML), null as `null`, objects as JSON. */
export const cellText = (value: unknown): string =>
  typeof value === 'string' ? value : value === undefined ? '' : JSON.stringify(value);

/** Rows as a table whose columns are the union of the rows' members, every cell text only. */
export function DataTable({ rows, caption }: { rows: Record<string, unknown>[]; caption: string }) {
  const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  return (
    <div class="table-scroll" tabIndex={0} role="region" aria-label={caption}>
      <table class="data">
        <caption>{caption}</caption>
        <thead>
          <tr>
            {columns.map((column) => (
              <th scope="col" key={column}>
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, index) => (
            <tr key={index}>
              {columns.map((column) => (
                <td key={column} class={row[column] === null ? 'null' : undefined}>
                  {cellText(row[column])}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
