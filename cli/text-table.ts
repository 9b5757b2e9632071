/** Cells longer than this are cut (with …), so that a row of many columns stays readable. */
const MAX_CELL = 36;

/**
 * Rows as a plain-text table for a terminal: a header, a rule, and each row, columns padded to their widest
 * cell; numbers aligned right. Every cell but the last column's is cut at MAX_CELL (a description reads whole).
 */
export function textTable(headers: readonly string[], rows: readonly (readonly unknown[])[]): string {
  const last = headers.length - 1;
  const cells = rows.map((row) => row.map((value, column) => cellText(value, column === last ? Infinity : MAX_CELL)));
  const widths = headers.map((header, column) =>
    Math.max(header.length, ...cells.map((row) => row[column]?.length ?? 0)),
  );
  const numeric = headers.map((_, column) => rows.length > 0 && rows.every((row) => typeof row[column] === 'number'));
  const line = (row: readonly string[]) =>
    row
      .map((cell, column) => (numeric[column] ? cell.padStart(widths[column]) : cell.padEnd(widths[column])))
      .join('  ')
      .trimEnd();
  return [line(headers), widths.map((width) => '─'.repeat(width)).join('  '), ...cells.map(line)].join('\n') + '\n';
}

function cellText(value: unknown, max: number): string {
  const text = value === null || value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);
  const flat = text.replace(/[\r\n\t]/g, ' ');
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
