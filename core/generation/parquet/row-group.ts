import { serialize } from 'node:v8';
import { ByteWriter, ParquetWriter } from 'hyparquet-writer';
import type { CompiledColumn } from '../codegen/compiled-column.js';
import { rowKey } from '../types/identifiers.js';
import type { Row } from '../types/index.js';
import { ByteSink } from '../codegen/byte-sink.js';
import { CODECS, compressors, type ParquetCompression } from './codecs.js';
import { writeDirectRowGroup, type RowGroup } from './direct-row-group.js';
import { parquetColumn, type ParquetColumn, type SchemaElement } from './columns.js';

export type { RowGroup };

/**
 * What a chunk's bytes end with, for the file's footer (file.ts): its row group's metadata, its offsets
 * counted from ROW_GROUP_BASE, and the file's schema in the first chunk (as a CSV chunk carries the header).
 */
export interface ChunkTrailer {
  schema?: SchemaElement[];
  row_group?: RowGroup;
}

/** Offsets in a chunk's metadata count from here: the chunk is written as if right after the file's magic. */
export const ROW_GROUP_BASE = 4;
/** Readers look for this at both ends of a Parquet file. */
export const MAGIC = new Uint8Array([0x50, 0x41, 0x52, 0x31]);
/** Who wrote the file, in its footer: the same for every file, so that bytes depend on the data alone. */
export const CREATED_BY = 'finsynth (hyparquet-writer 0.17.0)';
/**
 * Pages are cut at 1 MiB of encoded values (the writer's default). Statistics (min, max, nulls) are kept for
 * the columns whose values are not text: readers skip row groups by them, and for text they cost more
 * than the rest of the encoding.
 */
const PAGE_BYTES = 1 << 20;

export interface RowGroupRequest {
  columns: CompiledColumn[];
  /** Each column's type parameters, the config's overrides applied (integers and decimals are sized by them). */
  params: Record<string, unknown>[];
  rows: number;
  /** Calls `visit` with each row of the chunk and its index in the table, in order. */
  each: (visit: (row: Row, index: number) => void) => void;
  compression: ParquetCompression;
  /** The first chunk of the table: its trailer carries the schema. */
  first: boolean;
  /** A buffer the caller is done with, written over when large enough. */
  spare?: ArrayBuffer;
  /**
   * Who encodes the pages: this project's encoder (direct-row-group.ts, the default: several times faster,
   * and smaller files), or hyparquet-writer, kept as the plain reference the tests hold the other to.
   */
  encoder?: 'direct' | 'hyparquet';
}

/** A first guess of a row group's bytes per row (the buffer grows by doubling past it). */
const DIRECT_BYTES_PER_ROW_GUESS = 48;

/**
 * One chunk as one row group: its pages, then its trailer (ChunkTrailer, v8-serialised) and the trailer's
 * length (4 bytes, little-endian). A chunk of no rows is a trailer alone. The bytes depend only on the
 * rows and the compression, so a table's chunks may be written by any worker in any order.
 */
export function writeRowGroup(request: RowGroupRequest): Uint8Array {
  const { columns, params, rows, each, compression, first, spare } = request;
  const parquet = columns.map(({ name, type, nullable }, i) =>
    parquetColumn({ name, type: type.name, params: params[i], nullable }),
  );
  const schema: SchemaElement[] = [{ name: 'schema', num_children: columns.length }, ...parquet.map((c) => c.element)];
  if (request.encoder !== 'hyparquet') {
    const out = new ByteSink(1024 + rows * DIRECT_BYTES_PER_ROW_GUESS, spare);
    const group =
      rows > 0 ? writeDirectRowGroup(out, ROW_GROUP_BASE, columns, parquet, rows, each, compression) : undefined;
    const encoded = serialize({ ...(first ? { schema } : {}), ...(group ? { row_group: group } : {}) });
    out.reserve(encoded.length + 4);
    out.buffer.set(encoded, out.length);
    out.view.setUint32(out.length + encoded.length, encoded.length, true);
    out.length += encoded.length + 4;
    return out.bytes();
  }
  const data = columns.map(() => new Array<unknown>(rows));
  let at = 0;
  each((row, index) => {
    for (let i = 0; i < columns.length; i++) data[i][at] = cellOf(columns[i], parquet[i], row, index);
    at++;
  });
  const writer = new ByteWriter(64);
  if (spare && spare.byteLength >= 1024) {
    writer.buffer = spare;
    writer.view = new DataView(spare);
  }
  const file = new ParquetWriter({
    writer,
    schema,
    codec: CODECS[compression],
    compressors,
    createdBy: CREATED_BY,
  });
  if (rows > 0)
    void file.write({
      columnData: parquet.map((column, i) => ({
        name: column.element.name,
        data: data[i],
        encoding: column.dictionary ? 'RLE_DICTIONARY' : undefined,
        statistics: column.element.type !== 'BYTE_ARRAY',
        offsetIndex: false,
      })),
      rowGroupSize: rows,
      pageSize: PAGE_BYTES,
    });
  const trailer: ChunkTrailer = {
    ...(first ? { schema } : {}),
    ...(rows > 0 ? { row_group: file.row_groups[0] } : {}),
  };
  const encoded = serialize(trailer);
  writer.appendBytes(encoded);
  writer.appendUint32(encoded.length);
  return new Uint8Array(writer.buffer, ROW_GROUP_BASE, writer.index - ROW_GROUP_BASE);
}

/** A row's cell as the column's Parquet type holds it; a key left to the writer is made from the row's index. */
function cellOf(column: CompiledColumn, parquet: ParquetColumn, row: Row, index: number): unknown {
  const value = row[column.name];
  if (value === undefined && column.key)
    return rowKey(column.key.prefix, column.key.tableSeed, column.key.rowOf(index));
  return parquet.convert(value);
}
