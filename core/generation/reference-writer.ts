/**
 * The output formats written plainly, one string per cell: the readable definition of the text of a table.
 * codegen/writers.ts compiles a much faster writer per table and format, and must produce the same bytes
 * (test/core/generation/codegen/reference-writer.test.ts holds it to that, over every built-in table).
 */
import type { CompiledColumn } from './codegen/compiled-column.js';
import type { Format } from './codegen/writers.js';
import { currencyByCode } from './reference-data/currencies.js';
import { rowKey } from './types/identifiers.js';
import type { Row } from './types/index.js';

/** Hands each row of a table, with its index in the table, to `write`, in order. */
export type RowVisitor = (write: (row: Row, index: number) => void) => void;

/**
 * A table's whole text in `format`. The rows come through a visitor rather than as a list: a key column
 * left out of a row is printed from the runtime's state while the row is the current one (a per-parent
 * table's owning parent, a generator's `ctx.setRef`), so each row is written as soon as it is made.
 */
export function referenceText(columns: CompiledColumn[], format: Format, visitRows: RowVisitor): string {
  let text = tableStart(columns, format);
  let written = 0;
  visitRows((row, index) => {
    text += rowText(columns, row, index, format, written === 0);
    written++;
  });
  return text + tableEnd(format, written);
}

/** CSV opens with the header line; JSON with the bracket of the one array that holds every row. */
function tableStart(columns: CompiledColumn[], format: Format): string {
  if (format === 'csv') return `${columns.map((column) => csvField(column.name)).join(',')}\r\n`;
  if (format === 'json') return '[';
  return '';
}

/** JSON closes its array on a line of its own, or right after the bracket when there were no rows. */
function tableEnd(format: Format, rows: number): string {
  if (format !== 'json') return '';
  return rows > 0 ? '\n]\n' : ']\n';
}

/**
 * One row. NDJSON: an object and a line feed. JSON: an object on a line of its own, after a comma but for
 * the first row. CSV: the fields in column order, separated by commas, ended by CRLF (RFC 4180).
 */
function rowText(columns: CompiledColumn[], row: Row, index: number, format: Format, first: boolean): string {
  if (format === 'csv') return `${columns.map((column) => csvCell(column, row, index)).join(',')}\r\n`;
  const members = columns.map((column) => `${JSON.stringify(column.name)}:${jsonCell(column, row, index)}`);
  const object = `{${members.join(',')}}`;
  if (format === 'ndjson') return `${object}\n`;
  return `${first ? '' : ','}\n${object}`;
}

/** A cell in JSON: a value of the column's kind by the rules below, anything else as JSON.stringify has it. */
function jsonCell(column: CompiledColumn, row: Row, index: number): string {
  const value = cellValue(column, row, index);
  if (value === null || value === undefined) return 'null';
  if (isMoney(column, value)) return fixedPoint(value, minorUnits(column, row));
  if (isInstant(column, value)) return JSON.stringify(isoInstant(value));
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  return JSON.stringify(value) ?? 'null';
}

/**
 * A cell in CSV: null is the empty field; numbers as JavaScript writes them (NaN and Infinity included,
 * which JSON writes as null); text quoted where RFC 4180 needs it; any other value as its JSON text.
 */
function csvCell(column: CompiledColumn, row: Row, index: number): string {
  const value = cellValue(column, row, index);
  if (value === null || value === undefined) return '';
  if (isMoney(column, value)) return fixedPoint(value, minorUnits(column, row));
  if (isInstant(column, value)) return isoInstant(value);
  if (typeof value === 'number') return String(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'string') return csvField(value);
  return csvField(JSON.stringify(value));
}

/**
 * What a cell holds: the row's value, or for a key or reference column the engine left out of the row,
 * the key of row `rowOf(index)` of the table it names.
 */
function cellValue(column: CompiledColumn, row: Row, index: number): unknown {
  const value = row[column.name];
  if (value !== undefined || !column.key) return value;
  const { prefix, tableSeed, rowOf } = column.key;
  return rowKey(prefix, tableSeed, rowOf(index));
}

/** A money column's amount; any other value in it is written as that value. */
function isMoney(column: CompiledColumn, value: unknown): value is number {
  return column.type.name === 'money' && typeof value === 'number' && Number.isFinite(value);
}

/** A timestamp column may hold its instant as a number, in milliseconds since the epoch. */
function isInstant(column: CompiledColumn, value: unknown): value is number {
  return column.type.name === 'timestamp' && typeof value === 'number' && Number.isFinite(value);
}

/**
 * The minor units of a money cell's currency: the column's fixed currency, else the row's currency cell;
 * two for a currency that is not known (a null currency cell among them).
 */
function minorUnits(column: CompiledColumn, row: Row): number {
  const code = column.currency ?? (column.currencyColumn === undefined ? undefined : row[column.currencyColumn]);
  return (typeof code === 'string' ? currencyByCode.get(code)?.minor_units : undefined) ?? 2;
}

/**
 * `value` rounded half away from zero to exactly `digits` decimals (12.50, 1250, 1.250), without a minus
 * sign when it rounds to zero; past the safe integers, or past four decimals, as toFixed writes it.
 */
function fixedPoint(value: number, digits: number): string {
  const scaled = Math.round(Math.abs(value) * 10 ** digits);
  if (digits > 4 || scaled > Number.MAX_SAFE_INTEGER) return value.toFixed(digits);
  const sign = value < 0 && scaled !== 0 ? '-' : '';
  if (digits === 0) return `${sign}${scaled}`;
  const padded = String(scaled).padStart(digits + 1, '0');
  return `${sign}${padded.slice(0, -digits)}.${padded.slice(-digits)}`;
}

/** YYYY-MM-DDTHH:MM:SS.mmmZ in UTC; a fraction of a millisecond is dropped (years 0000 to 9999). */
function isoInstant(ms: number): string {
  return new Date(Math.floor(ms)).toISOString();
}

/** A CSV field by RFC 4180: as it is, unless it holds a comma, a quote or a line break; then quoted, quotes doubled. */
function csvField(text: string): string {
  if (!/[",\r\n]/.test(text)) return text;
  return `"${text.replace(/"/g, '""')}"`;
}
