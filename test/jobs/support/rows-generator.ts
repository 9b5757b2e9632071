import { createHash } from 'node:crypto';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { TableGenerator } from '../../../core/jobs/ports.js';

/**
 * A deterministic table source for runner tests that must not depend on the engine: row i of a table
 * is a pure function of (seed, table, i), produced in chunks with a turn of the event loop between
 * them, as the pool's chunks arrive. `rowsPerChunk` and `pauseMs` shape how long a job runs.
 */
export function rowsGenerator({ rowsPerChunk = 1000, pauseMs = 0 } = {}): TableGenerator {
  return async function* (plan, table, { format, signal, onProgress }): AsyncIterable<Uint8Array> {
    const spec = (plan.tables as { name: string; rows: number }[]).find((candidate) => candidate.name === table)!;
    for (let start = 0; start < spec.rows; start += rowsPerChunk) {
      signal.throwIfAborted();
      const lines: string[] = start === 0 && format === 'csv' ? ['id,digest'] : [];
      for (let index = start; index < Math.min(spec.rows, start + rowsPerChunk); index += 1) {
        const digest = createHash('sha1').update(`${String(plan.seed)}:${table}:${index}`).digest('hex');
        lines.push(format === 'csv' ? `${index},${digest}` : JSON.stringify({ id: index, digest }));
      }
      yield Buffer.from(`${lines.join('\n')}\n`);
      onProgress(Math.min(spec.rows, start + rowsPerChunk), spec.rows);
      if (pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs));
      else await yieldToLoop();
    }
  };
}
