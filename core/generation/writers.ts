import type { ByteSink } from './byte-sink.js';
import { writeFixed, writeIsoTimestamp, writeNumber } from './cell-bytes.js';
import { currencyByCode } from './reference-data/currencies.js';
import type { CompiledColumn } from './runtime.js';
import { writeRowKey } from './types/identifiers.js';
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
  /** Writes one row; `index` is its position in the table (JSON separates rows with commas). */
  row(out: ByteSink, row: Row, index: number): void;
}

type Encode = (out: ByteSink, value: unknown, row: Row, index: number) => void;

/**
 * A JSON string, copied straight into the buffer while it is printable ASCII with nothing to escape
 * (almost every cell); otherwise written by JSON.stringify's rules (escapes only where JSON requires them).
 */
function jsonString(out: ByteSink, value: string): void {
  const n = value.length;
  out.reserve(n + 2);
  const buffer = out.buffer;
  let at = out.length;
  buffer[at++] = 34;
  for (let i = 0; i < n; i++) {
    const code = value.charCodeAt(i);
    if (code < 32 || code > 126 || code === 34 || code === 92) return out.text(jsonStringSlow(value));
    buffer[at++] = code;
  }
  buffer[at++] = 34;
  out.length = at;
}

function jsonStringSlow(value: string): string {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < 32 || code === 34 || code === 92) return JSON.stringify(value);
  }
  return `"${value}"`;
}

const NULL = bytesOf('null');
const TRUE = bytesOf('true');
const FALSE = bytesOf('false');

function jsonValue(out: ByteSink, value: unknown): void {
  switch (typeof value) {
    case 'string':
      return jsonString(out, value);
    case 'number':
      return Number.isFinite(value) ? writeNumber(out, value) : out.constant(NULL);
    case 'boolean':
      return out.constant(value ? TRUE : FALSE);
    default:
      return value === null || value === undefined ? out.constant(NULL) : out.text(JSON.stringify(value) ?? 'null');
  }
}

/** A CSV field, copied as is unless it holds a comma, a quote, a line break or non-ASCII text. */
function csvString(out: ByteSink, text: string): void {
  const n = text.length;
  out.reserve(n);
  const buffer = out.buffer;
  let at = out.length;
  for (let i = 0; i < n; i++) {
    const code = text.charCodeAt(i);
    if (code > 126 || code === 44 || code === 34 || code === 10 || code === 13) return out.text(csvField(text));
    buffer[at++] = code;
  }
  out.length = at;
}

function csvField(text: string): string {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 44 || code === 34 || code === 10 || code === 13) return `"${text.replace(/"/g, '""')}"`;
  }
  return text;
}

function csvValue(out: ByteSink, value: unknown): void {
  if (value === null || value === undefined) return;
  if (typeof value === 'string') return csvString(out, value);
  if (typeof value === 'number') return writeNumber(out, value);
  if (typeof value === 'object') return csvString(out, JSON.stringify(value));
  out.text(String(value));
}

/** Money as a fixed-point literal with its currency's minor units; a non-number falls back to the generic form. */
function moneyEncoder(column: CompiledColumn, fallback: (out: ByteSink, value: unknown) => void): Encode {
  const fixed = column.currency ? currencyByCode.get(column.currency)?.minor_units ?? 2 : undefined;
  const currencyColumn = column.currencyColumn;
  return (out, value, row) => {
    if (typeof value !== 'number' || !Number.isFinite(value)) return fallback(out, value);
    writeFixed(out, value, fixed ?? (currencyColumn ? currencyByCode.get(row[currencyColumn] as string)?.minor_units ?? 2 : 2));
  };
}

/**
 * A timestamp column also takes its instant as a number (ms since the epoch), the fast path a generator
 * may use instead of helpers.isoTimestamp: the writer prints it without building a string.
 */
function timestampEncoder(fallback: (out: ByteSink, value: unknown) => void, quoted: boolean): Encode {
  return (out, value) => {
    if (typeof value !== 'number' || !Number.isFinite(value)) return fallback(out, value);
    if (!quoted) return writeIsoTimestamp(out, value);
    out.reserve(1);
    out.buffer[out.length++] = 34;
    writeIsoTimestamp(out, value);
    out.reserve(1);
    out.buffer[out.length++] = 34;
  };
}

/** A key or reference column the engine left out of the row (see CompiledColumn.key): printed from the row's index. */
function keyEncoder({ prefix, tableSeed, rowOf }: NonNullable<CompiledColumn['key']>, fallback: (out: ByteSink, value: unknown) => void, quoted: boolean): Encode {
  const prefixBytes = bytesOf(prefix);
  return (out, value, _row, index) => (value === undefined ? writeRowKey(out, prefixBytes, tableSeed, rowOf(index), quoted) : fallback(out, value));
}

function encoderOf(column: CompiledColumn, generic: (out: ByteSink, value: unknown) => void, quoted: boolean): Encode {
  if (column.key) return keyEncoder(column.key, generic, quoted);
  if (column.type.name === 'money') return moneyEncoder(column, generic);
  if (column.type.name === 'timestamp') return timestampEncoder(generic, quoted);
  return generic;
}

export function tableWriter(columns: CompiledColumn[], format: Format): TableWriter {
  if (format === 'csv') {
    return {
      start: `${columns.map((column) => column.name).join(',')}\r\n`,
      end: () => '',
      row: compileRowWriter(columns, csvValue, false, columns.map((_, i) => (i ? ',' : '')), '\r\n'),
    };
  }
  if (format === 'ndjson') {
    return { start: '', end: () => '', row: compileRowWriter(columns, jsonValue, true, jsonPrefixes(columns), '}\n') };
  }
  const object = compileRowWriter(columns, jsonValue, true, jsonPrefixes(columns), '}');
  const first = bytesOf('\n');
  const next = bytesOf(',\n');
  return {
    start: '[',
    end: (total) => (total > 0 ? '\n]\n' : ']\n'),
    row: (out, row, index) => {
      out.constant(index > 0 ? next : first);
      object(out, row, index);
    },
  };
}

const jsonPrefixes = (columns: CompiledColumn[]) => columns.map((column, i) => `${i ? ',' : '{'}${JSON.stringify(column.name)}:`);

function bytesOf(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

/**
 * A row writer generated for the table's columns: one statement per cell reading it by a constant
 * property name (that keeps every access monomorphic, where a loop over column names made property
 * lookup a large share of the cost of a row), and the keys and separators between cells, which are
 * most of a row's bytes, written as unrolled stores of constant bytes. In JSON, a string cell is copied
 * inline, with its key, after one check of the room it needs (a call and a check per cell were a third
 * of the writer's time). Names are checked identifiers (manifest schema) and are quoted here anyway.
 */
function compileRowWriter(columns: CompiledColumn[], generic: (out: ByteSink, value: unknown) => void, quoted: boolean, prefixes: string[], suffix: string): TableWriter['row'] {
  const encoders: Encode[] = columns.map((column) => encoderOf(column, generic, quoted));
  const cells = columns.map((column, i) => {
    const read = `  v = row[${JSON.stringify(column.name)}];`;
    const encoded = `${constantStores(prefixes[i])}\n  e${i}(out, v, row, index);`;
    if (!quoted || column.type.json_type !== 'string' || column.type.name === 'timestamp') return `${read}\n${encoded}`;
    return `${read}\n  if (typeof v === 'string') {\n${inlineJsonString(prefixes[i])}\n  } else {\n${encoded}\n  }`;
  });
  const names = encoders.map((_, i) => `e${i}`);
  const body = `return function writeRow(out, row, index) {\n  let buffer, at, v, n, i, c, j;\n${cells.join('\n')}\n${constantStores(suffix)}\n};`;
  return new Function('jsonStringSlow', ...names, body)(jsonStringSlow, ...encoders) as TableWriter['row'];
}

/** Statements that write `text`'s bytes at the sink's end. */
function constantStores(text: string): string {
  const bytes = bytesOf(text);
  if (bytes.length === 0) return '';
  return `  out.reserve(${bytes.length}); buffer = out.buffer; at = out.length;\n  ${storesAt(bytes)}\n  out.length = at + ${bytes.length};`;
}

function storesAt(bytes: Uint8Array): string {
  return Array.from(bytes, (byte, i) => `buffer[at${i ? ` + ${i}` : ''}] = ${byte};`).join(' ');
}

/** Statements that write `prefix` and the JSON string `v`, copied while it has nothing to escape. */
function inlineJsonString(prefix: string): string {
  const bytes = bytesOf(`${prefix}"`);
  const p = bytes.length;
  return [
    `    n = v.length; out.reserve(${p + 1} + n); buffer = out.buffer; at = out.length;`,
    `    ${storesAt(bytes)}`,
    `    for (i = 0, j = at + ${p}; i < n; i++) { c = v.charCodeAt(i); if (c < 32 || c > 126 || c === 34 || c === 92) break; buffer[j++] = c; }`,
    `    if (i === n) { buffer[j] = 34; out.length = j + 1; } else { out.length = at + ${p - 1}; out.text(jsonStringSlow(v)); }`,
  ].join('\n');
}
