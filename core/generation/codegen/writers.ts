import type { ByteSink } from './byte-sink.js';
import {
  FIXED_BYTES,
  NUMBER_BYTES,
  TIMESTAMP_BYTES,
  writeFixed,
  writeIsoTimestamp,
  writeNumber,
} from './cell-bytes.js';
import { generatedFactory } from './generated-code.js';
import { currencyByCode } from '../reference-data/currencies.js';
import type { CompiledColumn } from './compiled-column.js';
import { KEY_DIGITS, keyDigits } from '../types/identifiers.js';
import type { Row } from '../types/index.js';

/**
 * Serialisers for the three output formats, compiled once per table: NDJSON (one JSON object per line),
 * CSV (RFC 4180: header line, CRLF, fields quoted when they hold a comma, quote or line break, quotes
 * doubled; null is the empty field) and JSON (one array over all the chunks: the first chunk opens it,
 * the last closes it). Money is written with exactly its currency's minor units (12.50 EUR, 1250 JPY,
 * 1.250 KWD) in every format. ../reference-writer.ts writes the same text plainly and is the definition
 * these writers are tested against; README.md in this folder says why they are generated code.
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

/**
 * Writes one cell's value at `at` of `buffer` (out.buffer), where the row writer has made room for the
 * encoder's `bound`; returns the position after it, or -1 when the value is beyond that fast path and was
 * written through the sink instead (out.length then says where the row goes on). `currency` is the row's
 * currency cell, for a money column that has one: the row writer reads it by its constant name, where a
 * read by a variable name, shared by the money columns of every table, went megamorphic.
 */
type Encode = (out: ByteSink, buffer: Uint8Array, at: number, value: unknown, currency?: unknown) => number;
type Generic = (out: ByteSink, buffer: Uint8Array, at: number, value: unknown) => number;
interface Encoder {
  write: Encode;
  bound: number;
}

/**
 * A JSON string by JSON.stringify's rules (escapes only where JSON requires them), for the rare string the
 * row writer does not copy inline (it copies printable ASCII with nothing to escape, almost every cell).
 */
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
const NONE = new Uint8Array(0);
/** Room for a generic value's fast path: a safe integer, true, false or null. */
const GENERIC_BYTES = NUMBER_BYTES;

function bytesAt(buffer: Uint8Array, at: number, bytes: Uint8Array): number {
  for (let i = 0; i < bytes.length; i++) buffer[at + i] = bytes[i];
  return at + bytes.length;
}

function jsonValue(out: ByteSink, buffer: Uint8Array, at: number, value: unknown): number {
  switch (typeof value) {
    case 'number':
      return Number.isFinite(value) ? writeNumber(out, buffer, at, value) : bytesAt(buffer, at, NULL);
    case 'boolean':
      return bytesAt(buffer, at, value ? TRUE : FALSE);
    case 'string':
      out.length = at;
      out.text(jsonStringSlow(value));
      return -1;
    default:
      if (value === null || value === undefined) return bytesAt(buffer, at, NULL);
      out.length = at;
      out.text(JSON.stringify(value) ?? 'null');
      return -1;
  }
}

/** A CSV field: as is unless it holds a comma, a quote or a line break (then quoted, quotes doubled). */
function csvField(text: string): string {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 44 || code === 34 || code === 10 || code === 13) return `"${text.replace(/"/g, '""')}"`;
  }
  return text;
}

function csvValue(out: ByteSink, buffer: Uint8Array, at: number, value: unknown): number {
  if (value === null || value === undefined) return at;
  if (typeof value === 'number') return writeNumber(out, buffer, at, value);
  if (typeof value === 'boolean') return bytesAt(buffer, at, value ? TRUE : FALSE);
  out.length = at;
  out.text(typeof value === 'object' ? csvField(JSON.stringify(value)) : String(value));
  return -1;
}

const genericEncoder = (generic: Generic): Encoder => ({ write: generic, bound: GENERIC_BYTES });

/** Money as a fixed-point literal with its currency's minor units; a non-number falls back to the generic form. */
function moneyEncoder(column: CompiledColumn, generic: Generic): Encoder {
  const fixed = column.currency ? (currencyByCode.get(column.currency)?.minor_units ?? 2) : undefined;
  const currencyColumn = column.currencyColumn;
  // Rows of a table repeat a few currencies: the last one's minor units are kept at hand.
  let lastCurrency: unknown;
  let lastDigits = 2;
  const digitsOf = (code: unknown) => {
    if (code !== lastCurrency) {
      lastDigits = currencyByCode.get(code as string)?.minor_units ?? 2;
      lastCurrency = code;
    }
    return lastDigits;
  };
  return {
    bound: Math.max(FIXED_BYTES, GENERIC_BYTES),
    write: (out, buffer, at, value, currency) => {
      if (typeof value !== 'number' || !Number.isFinite(value)) return generic(out, buffer, at, value);
      return writeFixed(out, buffer, at, value, fixed ?? (currencyColumn ? digitsOf(currency) : 2));
    },
  };
}

/**
 * A timestamp column also takes its instant as a number (ms since the epoch), the fast path a generator
 * may use instead of helpers.isoTimestamp: the writer prints it without building a string.
 */
function timestampEncoder(generic: Generic, quoted: boolean): Encoder {
  if (!quoted)
    return {
      bound: TIMESTAMP_BYTES,
      write: (out, buffer, at, value) =>
        typeof value === 'number' && Number.isFinite(value)
          ? writeIsoTimestamp(out, buffer, at, value)
          : generic(out, buffer, at, value),
    };
  return {
    bound: TIMESTAMP_BYTES + 2,
    write: (out, buffer, at, value) => {
      if (typeof value !== 'number' || !Number.isFinite(value)) return generic(out, buffer, at, value);
      buffer[at] = 34;
      const end = writeIsoTimestamp(out, buffer, at + 1, value);
      if (end >= 0) {
        buffer[end] = 34;
        return end + 1;
      }
      out.ascii('"');
      return -1;
    },
  };
}

/**
 * A key or reference column the engine left out of the row (see CompiledColumn.key) is printed by the row
 * writer itself from the row's index (keyCell); a value its generator set goes through the generic form.
 */
function keyEncoder({ prefix }: NonNullable<CompiledColumn['key']>, generic: Generic, quoted: boolean): Encoder {
  return { bound: Math.max(keyCellBytes(prefix, quoted), GENERIC_BYTES), write: generic };
}

/** A printed key's bytes: its prefix, `_`, its digits, and the quotes of a JSON string. */
const keyCellBytes = (prefix: string, quoted: boolean) => prefix.length + 1 + KEY_DIGITS + (quoted ? 2 : 0);

function encoderOf(column: CompiledColumn, generic: Generic, quoted: boolean): Encoder {
  if (column.key) return keyEncoder(column.key, generic, quoted);
  if (column.type.name === 'timestamp') return timestampEncoder(finiteOnly(column, generic), quoted);
  if (column.type.name === 'money') return moneyEncoder(column, finiteOnly(column, generic));
  const numeric = column.type.json_type === 'number' || column.type.json_type === 'integer';
  return genericEncoder(numeric ? finiteOnly(column, generic) : generic);
}

/** Refuses a number that is not finite: JSON would write it as null and CSV as `Infinity`, neither the column's. */
function finiteOnly(column: CompiledColumn, generic: Generic): Generic {
  return (out, buffer, at, value) => {
    if (typeof value === 'number' && !Number.isFinite(value))
      throw new Error(`column "${column.name}" holds ${value}, which is not a number a dataset can hold`);
    return generic(out, buffer, at, value);
  };
}

export function tableWriter(columns: CompiledColumn[], format: Format): TableWriter {
  if (format === 'csv') {
    return {
      start: `${columns.map((column) => column.name).join(',')}\r\n`,
      end: () => '',
      row: compileRowWriter(
        columns,
        'csv',
        columns.map((_, i) => (i ? ',' : '')),
        '\r\n',
      ),
    };
  }
  if (format === 'ndjson')
    return { start: '', end: () => '', row: compileRowWriter(columns, 'ndjson', jsonPrefixes(columns), '}\n') };
  return {
    start: '[',
    end: (total) => (total > 0 ? '\n]\n' : ']\n'),
    row: compileRowWriter(columns, 'json', jsonPrefixes(columns), '}'),
  };
}

const jsonPrefixes = (columns: CompiledColumn[]) =>
  columns.map((column, i) => `${i ? ',' : '{'}${JSON.stringify(column.name)}:`);

function bytesOf(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

/**
 * A row writer generated for the table's columns: one statement per cell reading it by a constant
 * property name (that keeps every access monomorphic, where a loop over column names made property
 * lookup a large share of the cost of a row), and the keys and separators between cells, which are
 * most of a row's bytes, written as unrolled stores of constant bytes. The buffer and the write position
 * live in locals for the whole row, after one check of room for everything of bounded size (separators,
 * keys, numbers, instants: a check and a call per cell were a large share of the writer's time); a string
 * cell, copied inline while it has nothing to escape, checks for its own length. JSON output separates
 * rows with a comma and a line break. Names are checked identifiers (manifest schema) and quoted anyway.
 */
function compileRowWriter(
  columns: CompiledColumn[],
  format: Format,
  prefixes: string[],
  suffix: string,
): TableWriter['row'] {
  const quoted = format !== 'csv';
  const generic = quoted ? jsonValue : csvValue;
  const encoders = columns.map((column) => encoderOf(column, generic, quoted));
  const prefixBytes = prefixes.map(bytesOf);
  const suffixBytes = bytesOf(suffix);
  const lead = format === 'json' ? 2 : 0;
  // needs[i]: the room the cells from i on take at most, strings aside.
  const needs = new Array<number>(columns.length + 1);
  needs[columns.length] = suffixBytes.length;
  for (let i = columns.length - 1; i >= 0; i--) needs[i] = needs[i + 1] + prefixBytes[i].length + encoders[i].bound;
  const cells = columns.map((column, i) => {
    const p = prefixBytes[i].length;
    const currency = column.currencyColumn ? `, row[${JSON.stringify(column.currencyColumn)}]` : '';
    const encoded = [
      `  ${storesAt(prefixBytes[i], 'at')} at += ${p};`,
      `  at = e${i}(out, buffer, at, v${currency});`,
      `  if (at < 0) {\n${resumed(needs[i + 1])}\n  }`,
    ].join('\n');
    // The commonest values written as constants, without a call: keys, strings, and null and booleans where the
    // column has them.
    const branches: string[] = [];
    if (column.key)
      branches.push(`if (v === undefined) {\n${keyCell(prefixBytes[i], column.key.prefix, i, quoted)}\n  }`);
    if (column.type.json_type === 'string')
      branches.push(`if (typeof v === 'string') {\n${inlineString(prefixBytes[i], needs[i + 1], quoted)}\n  }`);
    if (column.nullable) branches.push(`if (v === null) {\n${constantCell(prefixBytes[i], quoted ? NULL : NONE)}\n  }`);
    if (column.type.json_type === 'boolean')
      branches.push(
        `if (v === true) {\n${constantCell(prefixBytes[i], TRUE)}\n  }`,
        `if (v === false) {\n${constantCell(prefixBytes[i], FALSE)}\n  }`,
      );
    return `  v = row[${JSON.stringify(column.name)}];\n  ${[...branches, `{\n${encoded}\n  }`].join(' else ')}`;
  });
  const body = [
    'return function writeRow(out, row, index) {',
    '  let buffer = out.buffer, view = out.view, at = out.length, v, n, i, c, j;',
    `  if (buffer.length - at < ${lead + needs[0]}) { out.reserve(${lead + needs[0]}); ${RELOAD} }`,
    lead ? '  if (index > 0) buffer[at++] = 44;\n  buffer[at++] = 10;' : '',
    ...cells,
    `  ${storesAt(suffixBytes, 'at')}`,
    `  out.length = at + ${suffixBytes.length};`,
    '};',
  ].join('\n');
  // Encoders, and the keyed table's seed and row of each key column: parameters, not literals, so that the
  // text (and its compiled code, see generated-code.ts) is the same for every plan of the table.
  const names = [
    ...encoders.map((_, i) => `e${i}`),
    ...columns.map((_, i) => `s${i}`),
    ...columns.map((_, i) => `r${i}`),
  ];
  const values = [
    ...encoders.map((encoder) => encoder.write),
    ...columns.map((column) => column.key?.tableSeed),
    ...columns.map((column) => column.key?.rowOf),
  ];
  return generatedFactory(['jsonStringSlow', 'csvField', 'keyDigits', ...names], body)(
    jsonStringSlow,
    csvField,
    keyDigits,
    ...values,
  ) as TableWriter['row'];
}

/**
 * Statements that print key column `i` from the row's index: the cell's prefix, the key's prefix and `_`
 * as constant bytes, then the digits of the key of row `r<i>(index)` of the keyed table (seed `s<i>`).
 */
function keyCell(prefix: Uint8Array, keyPrefix: string, i: number, quoted: boolean): string {
  const lead = new Uint8Array([...prefix, ...(quoted ? [34] : []), ...bytesOf(`${keyPrefix}_`)]);
  return (
    `    ${storesAt(lead, 'at')} at = keyDigits(view, at + ${lead.length}, ` +
    `s${i}, r${i}(index));${quoted ? ' buffer[at++] = 34;' : ''}`
  );
}

/** Statements that write a cell whose bytes are known: its prefix and `value`. */
function constantCell(prefix: Uint8Array, value: Uint8Array): string {
  const bytes = new Uint8Array([...prefix, ...value]);
  return `    ${storesAt(bytes, 'at')} at += ${bytes.length};`;
}

/** Statements that take up the row again after a cell written through the sink, with room for `need` bytes. */
function resumed(need: number): string {
  return `    ${RELOAD} at = out.length;\n    if (buffer.length - at < ${need}) { out.reserve(${need}); ${RELOAD} }`;
}

/** Statements that take up the sink's buffer again after it may have grown. */
const RELOAD = 'buffer = out.buffer; view = out.view;';

/**
 * Statements that store `bytes` from position `base` on: eight at a time as the double whose bits they
 * are, then four, two and one (one store where there were up to eight). Eight bytes of text are never a
 * NaN's, whose bits a store need not keep; a NaN's are stored as two words all the same.
 */
function storesAt(bytes: Uint8Array, base: string): string {
  const at = (i: number) => `${base}${i ? ` + ${i}` : ''}`;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const stores: string[] = [];
  let i = 0;
  for (; i + 8 <= bytes.length; i += 8) {
    const double = view.getFloat64(i, true);
    if (!Number.isNaN(double))
      stores.push(`view.setFloat64(${at(i)}, ${Object.is(double, -0) ? '-0' : double}, true);`);
    else
      stores.push(
        `view.setUint32(${at(i)}, ${view.getUint32(i, true)}, true);`,
        `view.setUint32(${at(i + 4)}, ${view.getUint32(i + 4, true)}, true);`,
      );
  }
  if (i + 4 <= bytes.length) {
    stores.push(`view.setUint32(${at(i)}, ${view.getUint32(i, true)}, true);`);
    i += 4;
  }
  if (i + 2 <= bytes.length) {
    stores.push(`view.setUint16(${at(i)}, ${view.getUint16(i, true)}, true);`);
    i += 2;
  }
  if (i < bytes.length) stores.push(`buffer[${at(i)}] = ${bytes[i]};`);
  return stores.join(' ');
}

/**
 * Statements that write `prefix` and the string `v` after checking room for it and `need` bytes more:
 * copied while it has nothing to escape (JSON: printable ASCII but for quote and backslash; CSV: ASCII
 * but for comma, quote and line breaks) or is a character of the Basic Multilingual Plane encoded in place,
 * else through the sink by the general rule.
 */
function inlineString(prefix: Uint8Array, need: number, quoted: boolean): string {
  const p = prefix.length;
  const q = quoted ? 1 : 0;
  const plain = quoted
    ? 'c >= 32 && c <= 126 && c !== 34 && c !== 92'
    : 'c <= 126 && c !== 44 && c !== 34 && c !== 10 && c !== 13';
  return [
    `    n = v.length;`,
    `    if (buffer.length - at < n + ${p + 2 * q + need}) { out.length = at; ` +
      `out.reserve(n + ${p + 2 * q + need}); ${RELOAD} }`,
    `    ${storesAt(prefix, 'at')}${quoted ? ` buffer[at + ${p}] = 34;` : ''}`,
    `    for (i = 0, j = at + ${p + q}; i < n; i++) {`,
    `      c = v.charCodeAt(i);`,
    `      if (${plain}) { buffer[j++] = c; continue; }`,
    // Other text of the Basic Multilingual Plane (accented names, streets) as UTF-8 in the same pass, where the
    // room reserved holds it; surrogates (emoji) and escapes take the general rule.
    `      if (c < 128 || (c >= 0xd800 && c <= 0xdfff) || buffer.length - j < (n - i) * 3 + ${q + need}) break;`,
    `      if (c < 0x800) { buffer[j++] = 0xc0 | (c >> 6); buffer[j++] = 0x80 | (c & 63); }`,
    `      else {`,
    `        buffer[j++] = 0xe0 | (c >> 12); buffer[j++] = 0x80 | ((c >> 6) & 63); buffer[j++] = 0x80 | (c & 63);`,
    `      }`,
    `    }`,
    `    if (i === n) { ${quoted ? 'buffer[j] = 34; at = j + 1;' : 'at = j;'} } else {`,
    `      out.length = at + ${p}; out.text(${quoted ? 'jsonStringSlow(v)' : 'csvField(v)'});`,
    resumed(need).replace(/^/gm, '  '),
    `    }`,
  ].join('\n');
}
