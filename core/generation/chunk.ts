import { ByteSink } from './byte-sink.js';
import type { ChunkSpec } from './layout.js';
import { rowsPerParent } from './layout.js';
import type { PlanRuntime } from './runtime.js';
import { tableWriter, type Format, type TableWriter } from './writers.js';

/**
 * Generates one chunk of one table as UTF-8 bytes in the requested format. Runs in a worker (or inline
 * in tests); everything it needs is the compiled plan and the chunk's place in the layout.
 */
export function renderChunk(runtime: PlanRuntime, table: string, chunk: ChunkSpec, format: Format): Uint8Array {
  const generator = runtime.table(table);
  const writer = writerFor(runtime, table, format);
  const out = new ByteSink(Math.min(1 << 22, 1024 + chunk.rows * 256));
  if (chunk.index === 0) out.text(writer.start);
  if (chunk.parent_start === undefined) {
    const end = chunk.first_row + chunk.rows;
    for (let index = chunk.first_row; index < end; index++) writer.row(out, generator.flatRow(index), index);
  } else {
    const counts = rowsPerParent(runtime.plan.seed, table, chunk);
    let index = chunk.first_row;
    for (let i = 0; i < counts.length; i++) {
      const count = counts[i];
      if (count === 0) continue;
      const state = generator.beginParent(chunk.parent_start + i, count, index);
      for (let position = 0; position < count; position++, index++) writer.row(out, generator.parentRow(state, position, index), index);
    }
  }
  if (chunk.last) out.text(writer.end(runtime.rowsOf(table)));
  return out.bytes();
}

const writers = new WeakMap<PlanRuntime, Map<string, TableWriter>>();

function writerFor(runtime: PlanRuntime, table: string, format: Format): TableWriter {
  let byTable = writers.get(runtime);
  if (!byTable) writers.set(runtime, (byTable = new Map()));
  const key = `${table}\u0000${format}`;
  let writer = byTable.get(key);
  if (!writer) byTable.set(key, (writer = tableWriter(runtime.table(table).columns, format)));
  return writer;
}
