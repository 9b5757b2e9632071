import { currencyByCode } from './reference-data/currencies.js';
import { formatFixed } from './time-format.js';
import type { CompiledColumn } from './runtime.js';
import type { Row } from './types/index.js';

/**
 * Serialisers for the three output formats, compiled once per table. A chunk is written as one string:
 * NDJSON (one JSON object per line), CSV (RFC 4180: header line, CRLF, fields quoted when they hold a
 * comma, quote or line break, quotes doubled; null is the empty field) and JSON (one array over all the
 * chunks: the first chunk opens it, the last closes it). Money is written with exactly its currency's
 * minor units (12.50 EUR, 1250 JPY, 1.250 KWD) in every format.
 */
export const FORMATS = ['ndjson', 'csv', 'json'] as const;
export type Format = (typeof FORMATS)[number];

export const CONTENT_TYPES: Record<Format, string> = {
  ndjson: 'application/x-ndjson',
  csv: 'text/csv; charset=utf-8; header=present',
  json: 'application/json',
};

export interface TableWriter {
  /** What precedes the first row of the table (CSV header, JSON's opening bracket). */
  start: string;
  /** What follows the last row. */
  end(totalRows: number): string;
  /** One row; `index` is its position in the table (JSON separates rows with commas). */
  row(row: Row, index: number): string;
}

type Encode = (value: unknown, row: Row) => string;

const NEEDS_CSV_QUOTES = /[",\r\n]/;

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

function csvValue(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value);
  return NEEDS_CSV_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Money as a fixed-point literal with its currency's minor units; a non-number falls back to the generic form. */
function moneyEncoder(column: CompiledColumn, fallback: (value: unknown) => string): Encode {
  const fixed = column.currency ? currencyByCode.get(column.currency)?.minor_units ?? 2 : undefined;
  const currencyColumn = column.currencyColumn;
  return (value, row) => {
    if (typeof value !== 'number' || !Number.isFinite(value)) return fallback(value);
    const digits = fixed ?? (currencyColumn ? currencyByCode.get(row[currencyColumn] as string)?.minor_units ?? 2 : 2);
    return formatFixed(value, digits);
  };
}

function encoders(columns: CompiledColumn[], generic: (value: unknown) => string): Encode[] {
  return columns.map((column) => (column.type.name === 'money' ? moneyEncoder(column, generic) : generic));
}

export function tableWriter(columns: CompiledColumn[], format: Format): TableWriter {
  switch (format) {
    case 'ndjson': {
      const object = jsonObject(columns);
      return { start: '', end: () => '', row: (row) => `${object(row)}\n` };
    }
    case 'json': {
      const object = jsonObject(columns);
      return {
        start: '[',
        end: (total) => (total > 0 ? '\n]\n' : ']\n'),
        row: (row, index) => (index > 0 ? ',\n' : '\n') + object(row),
      };
    }
    case 'csv': {
      const encode = encoders(columns, csvValue);
      const names = columns.map((column) => column.name);
      return {
        start: `${names.map(csvValue).join(',')}\r\n`,
        end: () => '',
        row: (row) => {
          let line = '';
          for (let i = 0; i < names.length; i++) line += (i ? ',' : '') + encode[i](row[names[i]], row);
          return `${line}\r\n`;
        },
      };
    }
  }
}

function jsonObject(columns: CompiledColumn[]): (row: Row) => string {
  const encode = encoders(columns, jsonValue);
  const names = columns.map((column) => column.name);
  const prefixes = names.map((name, i) => `${i ? ',' : '{'}${JSON.stringify(name)}:`);
  return (row) => {
    let out = '';
    for (let i = 0; i < names.length; i++) out += prefixes[i] + encode[i](row[names[i]], row);
    return `${out}}`;
  };
}
