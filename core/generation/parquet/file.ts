import { deserialize } from 'node:v8';
import { ByteWriter, ParquetWriter } from 'hyparquet-writer';
import type { SchemaElement } from './columns.js';
import { CREATED_BY, MAGIC, ROW_GROUP_BASE, type ChunkTrailer, type RowGroup } from './row-group.js';

/**
 * A Parquet file from a table's chunks, each one row group written by a worker (row-group.ts): the magic,
 * each chunk's pages in chunk order, then the footer with every row group's metadata, its offsets moved to
 * where the chunk landed in the file. The main thread only copies offsets; the pages are never touched.
 */
export class ParquetFile {
  private schema: SchemaElement[] | undefined;
  private readonly rowGroups: RowGroup[] = [];
  /** Bytes of the file so far. */
  private position = 0;

  /** The file's first bytes. */
  start(): Uint8Array {
    this.position = MAGIC.length;
    return MAGIC;
  }

  /** A chunk's pages, to be written next (a view of `chunk`, whose buffer the caller may recycle after). */
  add(chunk: Uint8Array): Uint8Array {
    const view = new DataView(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    const trailerBytes = view.getUint32(chunk.byteLength - 4, true);
    const pagesEnd = chunk.byteLength - 4 - trailerBytes;
    if (pagesEnd < 0) throw new Error('a Parquet chunk ends without its trailer');
    const trailer = deserialize(chunk.subarray(pagesEnd, chunk.byteLength - 4)) as ChunkTrailer;
    this.schema ??= trailer.schema;
    if (trailer.row_group) this.rowGroups.push(moved(trailer.row_group, BigInt(this.position - ROW_GROUP_BASE)));
    this.position += pagesEnd;
    return chunk.subarray(0, pagesEnd);
  }

  /** The footer: the file's metadata, its length and the magic again. */
  end(): Uint8Array {
    if (!this.schema) throw new Error("a Parquet file's first chunk carries its schema, and none came");
    const writer = new ByteWriter(4096);
    // The footer is what ParquetWriter writes after its row groups: its own magic (the first 4 bytes) is dropped.
    const footer = new ParquetWriter({ writer, schema: this.schema, createdBy: CREATED_BY });
    footer.row_groups = this.rowGroups;
    footer.num_rows = this.rowGroups.reduce((rows, group) => rows + group.num_rows, 0n);
    void footer.finish();
    return new Uint8Array(writer.buffer, MAGIC.length, writer.index - MAGIC.length);
  }
}

/** The whole file, chunk by chunk: each chunk's pages are handed on before the next chunk is asked for. */
export async function* parquetFile(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  const file = new ParquetFile();
  yield file.start();
  for await (const chunk of chunks) yield file.add(chunk);
  yield file.end();
}

/** A row group's metadata with every file offset moved by `shift` bytes. */
function moved(group: RowGroup, shift: bigint): RowGroup {
  const at = (offset: bigint | undefined) => (offset === undefined ? undefined : offset + shift);
  return {
    ...group,
    ...(group.file_offset !== undefined ? { file_offset: group.file_offset + shift } : {}),
    columns: group.columns.map((column) => ({
      ...column,
      file_offset: column.file_offset + shift,
      ...(column.meta_data
        ? {
            meta_data: {
              ...column.meta_data,
              data_page_offset: column.meta_data.data_page_offset + shift,
              dictionary_page_offset: at(column.meta_data.dictionary_page_offset),
              index_page_offset: at(column.meta_data.index_page_offset),
            },
          }
        : {}),
    })),
  };
}
