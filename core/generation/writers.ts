import { currencyByCode } from './reference-data/currencies.js';
import type { CompiledColumn } from './runtime.js';
import { formatFixed } from './time-format.js';
import type { Row } from './types/index.js';

/**
 * Serialisers for the three output formats, compiled once per table: NDJSON (one JSON object per line),
 * CSV (RFC 4180: header line, CRLF, fields quoted when they hold a comma, quote or line break, quotes
 * doubled; null is the empty field) and JSON (one array over all the chunks: the first chunk opens it,
 * the last closes it). Money is written with exactly its currency's minor units (12.50 EUR, 1250 JPY,
 * 1.250 KWD) in every format.
 */
export const FORMATS = ['ndjson', 'csv', 'json'] as const;
export type Format = (typeof FORMATS)[number];

export interface TableWriter {
  /** What precedes the first row of the table (CSV header, JSON's opening bracket). */
  start: string;
  /** What follows the last row. */
  end(totalRows: number): string;
  /** One row; `index` is its position in the table (JSON separates rows with commas). */
  row(row: Row, index: number): string;
}

type Encode = (value: unknown, row: Row) => string;

/** A character scan beats a regular expression on the short strings that make up most cells. */
function jsonString(value: string): string {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < 32 || code === 34 || code === 92) return JSON.stringify(value);
  }
  return `"${value}"`;
}

function jsonValue(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return jsonString(value);
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
    default:
      return value === null || value === undefined ? 'null' : JSON.stringify(value);
  }
}

function csvField(text: string): string {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 44 || code === 34 || code === 10 || code === 13) return `"${text.replace(/"/g, '""')}"`;
  }
  return text;
}

function csvValue(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return csvField(value);
  return typeof value === 'object' ? csvField(JSON.stringify(value)) : String(value);
}

/** Money as a fixed-point literal with its currency's minor units; a non-number falls back to the generic form. */
function moneyEncoder(column: CompiledColumn, fallback: (value: unknown) => string): Encode {
  const fixed = column.currency ? currencyByCode.get(column.currency)?.minor_units ?? 2 : undefined;
  const currencyColumn = column.currencyColumn;
  return (value, row) => {
    if (typeof value !== 'number' || !Number.isFinite(value)) return fallback(value);
    return formatFixed(value, fixed ?? (currencyColumn ? currencyByCode.get(row[currencyColumn] as string)?.minor_units ?? 2 : 2));
  };
}

export function tableWriter(columns: CompiledColumn[], format: Format): TableWriter {
  if (format === 'csv') {
    return {
      start: `${columns.map((column) => column.name).join(',')}\r\n`,
      end: () => '',
      row: compileRowWriter(columns, csvValue, columns.map((_, i) => (i ? ',' : '')), '\r\n'),
    };
  }
  if (format === 'ndjson') {
    return { start: '', end: () => '', row: compileRowWriter(columns, jsonValue, jsonPrefixes(columns), '}\n') };
  }
  const object = compileRowWriter(columns, jsonValue, jsonPrefixes(columns), '}');
  return {
    start: '[',
    end: (total) => (total > 0 ? '\n]\n' : ']\n'),
    row: (row, index) => (index > 0 ? ',\n' : '\n') + object(row, index),
  };
}

const jsonPrefixes = (columns: CompiledColumn[]) => columns.map((column, i) => `${i ? ',' : '{'}${JSON.stringify(column.name)}:`);

/**
 * A row writer generated for the table's columns, one concatenation expression reading each cell by a
 * constant property name: that keeps every access monomorphic, where a loop over column names made
 * property lookup a large share of the cost of a row. Names are checked identifiers (manifest schema)
 * and are quoted here anyway.
 */
function compileRowWriter(columns: CompiledColumn[], generic: (value: unknown) => string, prefixes: string[], suffix: string): TableWriter['row'] {
  const encoders: Encode[] = columns.map((column) => (column.type.name === 'money' ? moneyEncoder(column, generic) : generic));
  const cells = columns.map((column, i) => `${JSON.stringify(prefixes[i])} + encoders[${i}](row[${JSON.stringify(column.name)}], row)`);
  const factory = new Function('encoders', `return function writeRow(row) {\n  return ${cells.join(' +\n    ')} + ${JSON.stringify(suffix)};\n};`);
  return factory(encoders) as TableWriter['row'];
}
