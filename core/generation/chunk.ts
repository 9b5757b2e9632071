import { ByteSink, ESTIMATE_MARGIN } from './codegen/byte-sink.js';
import type { ChunkSpec } from './chunk-spec.js';
import { rowsPerParent } from './parent-runs.js';
import type { PlanRuntime } from './runtime.js';
import type { Row } from './types/index.js';
import { tableWriter, type Format, type TableWriter } from './codegen/writers.js';
import type { ParquetCompression } from './parquet/codecs.js';
import { writeRowGroup, type RowGroupRequest } from './parquet/row-group.js';
import { columnParams, mergeParams } from './types/params.js';

/**
 * Generates one chunk of one table as UTF-8 bytes in the requested format. Runs in a worker (or inline
 * in tests); everything it needs is the compiled plan and the chunk's place in the layout.
 */
export function renderChunk(
  runtime: PlanRuntime,
  table: string,
  chunk: ChunkSpec,
  format: Format,
  spare?: ArrayBuffer,
  observe?: (row: Row, index: number) => void,
): Uint8Array {
  const writer = writerFor(runtime, table, format);
  // Sized from the table's rows so far, so that the buffer rarely grows (each growth copies it).
  const out = new ByteSink(1024 + Math.ceil(chunk.rows * writer.bytesPerRow * ESTIMATE_MARGIN), spare);
  if (chunk.index === 0) out.text(writer.start);
  if (observe)
    eachRow(runtime, table, chunk, (row, index) => {
      observe(row, index);
      writer.row(out, row, index);
    });
  else eachRow(runtime, table, chunk, (row, index) => writer.row(out, row, index));
  if (chunk.last) out.text(writer.end(runtime.rowsOf(table)));
  if (chunk.rows > 0) writer.bytesPerRow = out.length / chunk.rows;
  return out.bytes();
}

/**
 * Generates one chunk of one table as one Parquet row group (parquet/row-group.ts): its pages and the
 * metadata the main thread puts in the file's footer (parquet/file.ts).
 */
export function renderParquetChunk(
  runtime: PlanRuntime,
  table: string,
  chunk: ChunkSpec,
  compression: ParquetCompression,
  spare?: ArrayBuffer,
  observe?: (row: Row, index: number) => void,
): Uint8Array {
  return writeRowGroup(parquetRowGroup(runtime, table, chunk, compression, spare, observe));
}

/** What writeRowGroup takes to write a chunk of a table: its columns, their parameters and its rows. */
export function parquetRowGroup(
  runtime: PlanRuntime,
  table: string,
  chunk: ChunkSpec,
  compression: ParquetCompression,
  spare?: ArrayBuffer,
  observe?: (row: Row, index: number) => void,
): RowGroupRequest {
  const generator = runtime.table(table);
  const overrides = runtime.plan.tables.find((planned) => planned.name === table)?.columns ?? {};
  const params = generator.columns.map(({ name }) => {
    const { null_rate: _nullRate, ...override } = overrides[name] ?? {};
    return mergeParams(columnParams(generator.definition.columns[name]), override);
  });
  return {
    columns: generator.columns,
    params,
    rows: chunk.rows,
    each: observe
      ? (visit) =>
          eachRow(runtime, table, chunk, (row, index) => {
            observe(row, index);
            visit(row, index);
          })
      : (visit) => eachRow(runtime, table, chunk, visit),
    compression,
    first: chunk.index === 0,
    spare,
  };
}

/**
 * Generates the rows of one chunk in order, each handed to `visit` with its index in the table: rows as a
 * writer takes them, with their key columns left out (the writer prints those from the index).
 */
export function eachRow(
  runtime: PlanRuntime,
  table: string,
  chunk: ChunkSpec,
  visit: (row: Row, index: number) => void,
): void {
  const generator = runtime.table(table);
  if (chunk.parent_start === undefined) {
    const end = chunk.first_row + chunk.rows;
    for (let index = chunk.first_row; index < end; index++) visit(generator.flatRow(index, true), index);
    return;
  }
  const counts = rowsPerParent(runtime, table, chunk);
  let index = chunk.first_row;
  for (let i = 0; i < counts.length; i++) {
    const count = counts[i];
    if (count === 0) continue;
    const state = generator.beginParent(chunk.parent_start + i, count, index);
    for (let position = 0; position < count; position++, index++)
      visit(generator.parentRow(state, position, index), index);
  }
}

/** A table's writer in one format, and the size of its rows in the last chunk it wrote. */
type SizedWriter = TableWriter & { bytesPerRow: number };

const writers = new WeakMap<PlanRuntime, Map<string, SizedWriter>>();

function writerFor(runtime: PlanRuntime, table: string, format: Format): SizedWriter {
  let byTable = writers.get(runtime);
  if (!byTable) writers.set(runtime, (byTable = new Map()));
  const key = `${table}\u0000${format}`;
  let writer = byTable.get(key);
  if (!writer) byTable.set(key, (writer = { ...tableWriter(runtime.table(table).columns, format), bytesPerRow: 256 }));
  return writer;
}
