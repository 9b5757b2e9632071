import { ByteSink } from './byte-sink.js';
import { currencyByCode } from './reference-data/currencies.js';
import type { CompiledColumn } from './runtime.js';
import type { Row } from './types/index.js';

/**
 * Serialisers for the three output formats, compiled once per table, writing bytes into a ByteSink:
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
  /** Writes one row; `index` is its position in the table (JSON separates rows with commas). */
  row(sink: ByteSink, row: Row, index: number): void;
}

type Encode = (sink: ByteSink, value: unknown, row: Row) => void;

const utf8 = (text: string) => new TextEncoder().encode(text);
const NULL = utf8('null');
const TRUE = utf8('true');
const FALSE = utf8('false');

function jsonValue(sink: ByteSink, value: unknown): void {
  switch (typeof value) {
    case 'string':
      return sink.jsonString(value);
    case 'number':
      return Number.isFinite(value) ? sink.text(String(value)) : sink.raw(NULL);
    case 'boolean':
      return sink.raw(value ? TRUE : FALSE);
    default:
      return value === null || value === undefined ? sink.raw(NULL) : sink.text(JSON.stringify(value));
  }
}

function csvValue(sink: ByteSink, value: unknown): void {
  if (value === null || value === undefined) return;
  if (typeof value === 'string') return sink.csvField(value);
  if (typeof value === 'number' || typeof value === 'boolean') return sink.text(String(value));
  sink.csvField(JSON.stringify(value));
}

/** Money as a fixed-point literal with its currency's minor units; a non-number falls back to the generic form. */
function moneyEncoder(column: CompiledColumn, fallback: (sink: ByteSink, value: unknown) => void): Encode {
  const fixed = column.currency ? currencyByCode.get(column.currency)?.minor_units ?? 2 : undefined;
  const currencyColumn = column.currencyColumn;
  return (sink, value, row) => {
    if (typeof value !== 'number' || !Number.isFinite(value)) return fallback(sink, value);
    sink.fixed(value, fixed ?? (currencyColumn ? currencyByCode.get(row[currencyColumn] as string)?.minor_units ?? 2 : 2));
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
  const object = compileRowWriter(columns, jsonValue, columns.map((column, i) => `${i ? ',' : '{'}${JSON.stringify(column.name)}:`), '}');
  if (format === 'ndjson') {
    const newline = utf8('\n');
    return {
      start: '',
      end: () => '',
      row: (sink, row, index) => {
        object(sink, row, index);
        sink.raw(newline);
      },
    };
  }
  const first = utf8('\n');
  const next = utf8(',\n');
  return {
    start: '[',
    end: (total) => (total > 0 ? '\n]\n' : ']\n'),
    row: (sink, row, index) => {
      sink.raw(index > 0 ? next : first);
      object(sink, row, index);
    },
  };
}

/**
 * A row writer generated for the table's columns: reading each cell by a constant property name keeps
 * every access monomorphic, where a loop over column names made property lookup a large share of the
 * cost of a row. Column names are checked identifiers (manifest schema), and are quoted here anyway.
 */
function compileRowWriter(columns: CompiledColumn[], generic: (sink: ByteSink, value: unknown) => void, prefixes: string[], suffix: string): TableWriter['row'] {
  const encoders: Encode[] = columns.map((column) => (column.type.name === 'money' ? moneyEncoder(column, generic) : (sink, value) => generic(sink, value)));
  const prefixBytes = prefixes.map(utf8);
  const body = columns
    .map((column, i) => `${prefixes[i] ? `sink.raw(prefixes[${i}]); ` : ''}encoders[${i}](sink, row[${JSON.stringify(column.name)}], row);`)
    .join('\n');
  const factory = new Function('encoders', 'prefixes', 'suffix', `return function writeRow(sink, row) {\n${body}\nsink.raw(suffix);\n};`);
  return factory(encoders, prefixBytes, utf8(suffix)) as TableWriter['row'];
}
