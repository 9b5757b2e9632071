/** Cells longer than this are cut (with …), so that a row of many columns stays readable. */
const MAX_CELL = 36;

/**
 * Rows as a plain-text table for a terminal: a header, a rule, and each row, columns padded to their widest
 * cell; numbers aligned right.
 */
export function textTable(headers: readonly string[], rows: readonly (readonly unknown[])[]): string {
  const cells = rows.map((row) => row.map(cellText));
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

function cellText(value: unknown): string {
  const text = value === null || value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);
  const flat = text.replace(/[\r\n\t]/g, ' ');
  return flat.length > MAX_CELL ? `${flat.slice(0, MAX_CELL - 1)}…` : flat;
}
