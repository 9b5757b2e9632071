import type { ParquetWriter } from 'hyparquet-writer';
import { ByteSink } from '../codegen/byte-sink.js';
import type { CompiledColumn } from '../codegen/compiled-column.js';
import { KEY_DIGITS, keyDigits, rowKey } from '../types/identifiers.js';
import type { Row } from '../types/index.js';
import { CODECS, compressors, type ParquetCompression } from './codecs.js';
import type { ParquetColumn } from './columns.js';
import { bitWidth, deltaBinaryPacked, deltaByteArray, hybrid, plainInt32, plainInt64 } from './encodings.js';
import { dataPageV2Header, dictionaryPageHeader, type EncodingName } from './page-header.js';

/** A row group's metadata as the footer writer (hyparquet-writer, in file.ts) takes it. */
export type RowGroup = ParquetWriter['row_groups'][number];
type ColumnChunk = RowGroup['columns'][number];
type ColumnMetaData = NonNullable<ColumnChunk['meta_data']>;

const enum Kind {
  Int32,
  Int64,
  Boolean,
  Text,
  /** A key or reference column the engine left out of the rows: its keys are made from row numbers. */
  Key,
}

/**
 * A text or key column keeps a dictionary while its distinct values are at most this share of the chunk's
 * rows (enums always): past it, the dictionary costs more than it saves and the values are written PLAIN.
 */
const DICTIONARY_SHARE = 0.5;
/**
 * A column whose first 1,024 values are more than 90 % distinct drops its dictionary then, not at the
 * limit: filling a dictionary of half a chunk's rows only to drop it cost more than the rest of the column.
 */
const NEARLY_UNIQUE_AFTER = 1024;
const NEARLY_UNIQUE_SHARE = 0.9;

/** One column's values of a chunk, gathered row by row into typed arrays (no boxed value per cell). */
class ColumnValues {
  kind: Kind;
  /** Definition levels (1: a value, 0: null), nullable columns only. */
  readonly defined: Uint8Array | undefined;
  /** Non-null values so far. */
  count = 0;
  /** Int32 and booleans: the values; text and keys under a dictionary: their indexes in it. */
  ints: Int32Array;
  /** Int64: the values; keys without a dictionary: the keyed rows. */
  numbers: Float64Array | undefined;
  /** Text without a dictionary: the values. */
  texts: string[] | undefined;
  dictionary: Map<string | number, number> | undefined;
  entries: (string | number)[] = [];
  private readonly dictionaryLimit: number;
  private readonly name: string;

  constructor(
    readonly column: CompiledColumn,
    readonly parquet: ParquetColumn,
    rows: number,
    private readonly position: number,
  ) {
    const type = parquet.element.type;
    this.name = column.name;
    this.kind = column.key
      ? Kind.Key
      : type === 'INT64'
        ? Kind.Int64
        : type === 'INT32'
          ? Kind.Int32
          : type === 'BOOLEAN'
            ? Kind.Boolean
            : Kind.Text;
    this.defined = column.nullable ? arrays.levels(position, rows) : undefined;
    this.ints = arrays.ints(position, this.kind === Kind.Int64 ? 0 : rows);
    this.numbers = this.kind === Kind.Int64 ? arrays.numbers(position, rows) : undefined;
    this.dictionary = this.kind === Kind.Text || this.kind === Kind.Key ? new Map() : undefined;
    this.dictionaryLimit = parquet.dictionary ? Infinity : Math.max(1, Math.floor(rows * DICTIONARY_SHARE));
  }

  add(row: Row, index: number, at: number): void {
    const value = row[this.name];
    const key = this.column.key;
    if (key && value === undefined) {
      const keyed = key.rowOf(index);
      return this.addEntry(this.kind === Kind.Key ? keyed : rowKey(key.prefix, key.tableSeed, keyed), at);
    }
    if (this.kind === Kind.Key) this.keysToText();
    if (this.kind === Kind.Text) {
      const text = typeof value === 'string' ? value : (this.parquet.convert(value) as string | null);
      if (text === null) return this.markNull(at);
      return this.addEntry(text, at);
    }
    const integer = this.parquet.integer!(value);
    if (integer === null) return this.markNull(at);
    if (this.defined) this.defined[at] = 1;
    if (this.kind === Kind.Int64) this.numbers![this.count++] = integer;
    else this.ints[this.count++] = integer;
  }

  private markNull(at: number): void {
    if (this.defined) this.defined[at] = 0;
  }

  private addEntry(entry: string | number, at: number): void {
    if (this.defined) this.defined[at] = 1;
    if (!this.dictionary) {
      if (this.texts) this.texts.push(entry as string);
      else this.numbers![this.count] = entry as number;
      this.count++;
      return;
    }
    if (this.count === NEARLY_UNIQUE_AFTER && this.nearlyUnique()) {
      this.dropDictionary();
      return this.addEntry(entry, at);
    }
    let position = this.dictionary.get(entry);
    if (position === undefined) {
      if (this.dictionary.size >= this.dictionaryLimit) {
        this.dropDictionary();
        return this.addEntry(entry, at);
      }
      this.dictionary.set(entry, (position = this.entries.length));
      this.entries.push(entry);
    }
    this.ints[this.count++] = position;
  }

  /** Values so far nearly all distinct (codes, keys of rows): the rest will be too, whatever the limit. */
  private nearlyUnique(): boolean {
    return this.dictionaryLimit !== Infinity && this.dictionary!.size > this.count * NEARLY_UNIQUE_SHARE;
  }

  /** Too many distinct values: the values so far, out of the dictionary. */
  private dropDictionary(): void {
    const { ints, entries, count } = this;
    if (this.kind === Kind.Key) {
      this.numbers = arrays.numbers(this.position, ints.length);
      for (let i = 0; i < count; i++) this.numbers[i] = entries[ints[i]] as number;
    } else {
      this.texts = Array.from(ints.subarray(0, count), (position) => entries[position] as string);
    }
    this.dictionary = undefined;
    this.entries = [];
  }

  /** A generator set a key column's value itself: the column's keys so far become text. */
  private keysToText(): void {
    const { prefix, tableSeed } = this.column.key!;
    const keyOf = (row: string | number) => rowKey(prefix, tableSeed, row as number);
    if (this.dictionary) this.entries = this.entries.map(keyOf);
    else this.texts = Array.from(this.numbers!.subarray(0, this.count), keyOf);
    if (this.dictionary) this.dictionary = new Map(this.entries.map((entry, position) => [entry, position]));
    this.numbers = undefined;
    this.kind = Kind.Text;
  }
}

/**
 * Each column position's arrays of the last chunk, written over by the next (every element a chunk reads is
 * written first): a chunk allocates none, and a worker's memory stays flat however many chunks it writes.
 */
class ReusedArrays {
  private readonly byPosition: { levels?: Uint8Array; ints?: Int32Array; numbers?: Float64Array }[] = [];

  levels(position: number, length: number): Uint8Array {
    const slot = (this.byPosition[position] ??= {});
    if (!slot.levels || slot.levels.length < length) slot.levels = new Uint8Array(length);
    return slot.levels;
  }

  ints(position: number, length: number): Int32Array {
    const slot = (this.byPosition[position] ??= {});
    if (!slot.ints || slot.ints.length < length) slot.ints = new Int32Array(length);
    return slot.ints;
  }

  numbers(position: number, length: number): Float64Array {
    const slot = (this.byPosition[position] ??= {});
    if (!slot.numbers || slot.numbers.length < length) slot.numbers = new Float64Array(length);
    return slot.numbers;
  }
}

const arrays = new ReusedArrays();

/** Scratch buffers of one thread: a column's values and levels before they are compressed and copied out. */
const scratch = { values: new ByteSink(1 << 16), levels: new ByteSink(1 << 12), raw: new ByteSink(1 << 16) };
const encoder = new TextEncoder();

/**
 * One chunk as one row group, encoded here rather than by hyparquet-writer (row-group.ts keeps that path,
 * and a test holds both to the same values): the cells are gathered into typed arrays, then each column
 * is one data page (version 2) — dictionary-encoded for text with few distinct values in the chunk (and
 * enums always), DELTA_BINARY_PACKED for INT64 (instants, amounts), PLAIN otherwise — after its
 * dictionary page. Writes the pages at `out`, counting offsets from `base`, and returns the metadata.
 */
export function writeDirectRowGroup(
  out: ByteSink,
  base: number,
  columns: CompiledColumn[],
  parquet: ParquetColumn[],
  rows: number,
  each: (visit: (row: Row, index: number) => void) => void,
  compression: ParquetCompression,
): RowGroup {
  const values = columns.map((column, i) => new ColumnValues(column, parquet[i], rows, i));
  let at = 0;
  each((row, index) => {
    for (let i = 0; i < values.length; i++) values[i].add(row, index, at);
    at++;
  });
  const start = out.length;
  const chunks = values.map((column) => writeColumn(out, base, column, rows, compression));
  let total = 0n;
  for (const chunk of chunks) total += chunk.meta_data?.total_uncompressed_size ?? 0n;
  return {
    columns: chunks,
    total_byte_size: total,
    num_rows: BigInt(rows),
    total_compressed_size: BigInt(out.length - start),
  };
}

function writeColumn(
  out: ByteSink,
  base: number,
  column: ColumnValues,
  rows: number,
  compression: ParquetCompression,
): ColumnChunk {
  const start = out.length;
  let uncompressed = 0;
  const encodings: EncodingName[] = [];
  const encodingStats: NonNullable<ColumnMetaData['encoding_stats']> = [];
  let dictionaryOffset: number | undefined;
  if (column.dictionary) {
    dictionaryOffset = start;
    const { values } = scratch;
    values.length = 0;
    writeEntries(values, column);
    uncompressed += page(out, values, undefined, compression, (sizes) =>
      dictionaryPageHeader(out, sizes, column.entries.length),
    );
    encodings.push('PLAIN');
    encodingStats.push({ page_type: 'DICTIONARY_PAGE', encoding: 'PLAIN', count: 1 });
  }
  const dataOffset = out.length;
  const { values, levels } = scratch;
  values.length = 0;
  levels.length = 0;
  if (column.defined) hybrid(levels, column.defined, rows, 1);
  const encoding = writeValues(values, column);
  const nulls = rows - column.count;
  uncompressed += page(out, values, levels, compression, (sizes) =>
    dataPageV2Header(out, sizes, {
      values: rows,
      nulls,
      rows,
      encoding,
      definitionBytes: levels.length,
      compressed: compression !== 'none',
    }),
  );
  encodings.push(encoding);
  encodingStats.push({ page_type: 'DATA_PAGE_V2', encoding, count: 1 });
  const element = column.parquet.element;
  return {
    meta_data: {
      type: element.type!,
      encodings,
      path_in_schema: [element.name],
      codec: CODECS[compression],
      num_values: BigInt(rows),
      total_compressed_size: BigInt(out.length - start),
      total_uncompressed_size: BigInt(uncompressed),
      data_page_offset: BigInt(base + dataOffset),
      ...(dictionaryOffset !== undefined ? { dictionary_page_offset: BigInt(base + dictionaryOffset) } : {}),
      ...(column.kind === Kind.Text || column.kind === Kind.Key ? {} : { statistics: statistics(column, nulls) }),
      encoding_stats: encodingStats,
    },
    file_offset: BigInt(base + start),
  };
}

/**
 * A page: its header (written by `header` once the sizes are known), its levels as they are, its values
 * compressed. Returns its size uncompressed, header included.
 */
function page(
  out: ByteSink,
  values: ByteSink,
  levels: ByteSink | undefined,
  compression: ParquetCompression,
  header: (sizes: { uncompressed: number; compressed: number }) => void,
): number {
  const raw = values.buffer.subarray(0, values.length);
  const compressor = compressors[CODECS[compression]];
  const stored = compressor ? compressor(raw) : raw;
  const levelBytes = levels?.length ?? 0;
  const headerStart = out.length;
  header({ uncompressed: levelBytes + raw.length, compressed: levelBytes + stored.length });
  const headerBytes = out.length - headerStart;
  out.reserve(levelBytes + stored.length);
  if (levels) out.buffer.set(levels.buffer.subarray(0, levelBytes), out.length);
  out.buffer.set(stored, out.length + levelBytes);
  out.length += levelBytes + stored.length;
  return headerBytes + levelBytes + raw.length;
}

/** The data page's values (without nulls) in the encoding the column's kind takes; returns that encoding. */
function writeValues(out: ByteSink, column: ColumnValues): EncodingName {
  const { count } = column;
  if (column.dictionary) {
    const width = bitWidth(Math.max(0, column.entries.length - 1));
    out.reserve(1);
    out.buffer[out.length++] = width;
    hybrid(out, column.ints, count, width);
    return 'RLE_DICTIONARY';
  }
  switch (column.kind) {
    case Kind.Int64:
      if (deltaBinaryPacked(out, column.numbers!, count)) return 'DELTA_BINARY_PACKED';
      out.length = 0;
      plainInt64(out, column.numbers!, count);
      return 'PLAIN';
    case Kind.Int32:
      plainInt32(out, column.ints, count);
      return 'PLAIN';
    case Kind.Boolean: {
      // RLE with its length before it, as booleans are stored in a version 2 page.
      out.reserve(4);
      const lengthAt = out.length;
      out.length += 4;
      hybrid(out, column.ints, count, 1);
      out.view.setUint32(lengthAt, out.length - lengthAt - 4, true);
      return 'RLE';
    }
    default: {
      // Byte arrays without a dictionary: their bytes end to end, then delta-encoded against each other.
      const { raw } = scratch;
      raw.length = 0;
      const lengths = new Float64Array(count);
      if (column.kind === Kind.Key) {
        const key = column.column.key!;
        for (let i = 0; i < count; i++) lengths[i] = keyBytes(raw, key.prefix, key.tableSeed, column.numbers![i]);
      } else {
        const texts = column.texts!;
        for (let i = 0; i < count; i++) lengths[i] = textBytes(raw, texts[i]);
      }
      deltaByteArray(out, raw.buffer, lengths, count);
      return 'DELTA_BYTE_ARRAY';
    }
  }
}

/** A dictionary page's values: each entry PLAIN, keys made from their rows. */
function writeEntries(out: ByteSink, column: ColumnValues): void {
  if (column.kind === Kind.Key) {
    const key = column.column.key!;
    for (const row of column.entries) plainKey(out, key.prefix, key.tableSeed, row as number);
  } else {
    for (const text of column.entries) plainText(out, text as string);
  }
}

/** A PLAIN byte array: its length (4 bytes, little-endian), then its UTF-8 bytes. */
function plainText(out: ByteSink, text: string): void {
  out.reserve(4);
  out.length += 4;
  const written = textBytes(out, text);
  out.view.setUint32(out.length - written - 4, written, true);
}

/** A text's UTF-8 bytes; returns how many. */
function textBytes(out: ByteSink, text: string): number {
  out.reserve(text.length * 3);
  const written = encoder.encodeInto(text, out.buffer.subarray(out.length)).written;
  out.length += written;
  return written;
}

/** A key as a PLAIN byte array. */
function plainKey(out: ByteSink, prefix: string, tableSeed: number, row: number): void {
  out.reserve(4);
  out.length += 4;
  const written = keyBytes(out, prefix, tableSeed, row);
  out.view.setUint32(out.length - written - 4, written, true);
}

/** A key's bytes, its digits written from its row without a string; returns how many. */
function keyBytes(out: ByteSink, prefix: string, tableSeed: number, row: number): number {
  const bytes = prefix.length + 1 + KEY_DIGITS;
  out.reserve(bytes);
  let at = out.length;
  for (let i = 0; i < prefix.length; i++) out.buffer[at++] = prefix.charCodeAt(i);
  out.buffer[at++] = 95; // _
  keyDigits(out.view, at, tableSeed, row);
  out.length += bytes;
  return bytes;
}

/** Min, max and nulls of a column of numbers or booleans, as the footer writer takes them. */
function statistics(column: ColumnValues, nulls: number): NonNullable<ColumnMetaData['statistics']> {
  const values = column.kind === Kind.Int64 ? column.numbers! : column.ints;
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < column.count; i++) {
    const value = values[i];
    if (value < min) min = value;
    if (value > max) max = value;
  }
  const null_count = BigInt(nulls);
  if (column.count === 0) return { null_count };
  if (column.kind === Kind.Int64) return { min_value: BigInt(min), max_value: BigInt(max), null_count };
  if (column.kind === Kind.Boolean) return { min_value: min === 1, max_value: max === 1, null_count };
  return { min_value: min, max_value: max, null_count };
}
