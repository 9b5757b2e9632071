import type { Plan } from './plan.js';
import type { PackDefinition } from '../packs/sdk.js';
import { mix, Rng, tableSeed } from './prng.js';

/**
 * How a table of a plan splits into chunks, the units of work of the pool. The split depends on the plan
 * alone (never on the number of workers), which is half of why the output is the same whatever the pool.
 * Flat tables: fixed runs of CHUNK_ROWS rows. Per-parent tables: runs of whole parents holding about
 * CHUNK_ROWS rows; the requested rows are spread over the parents, in proportion between chunks and by
 * a random draw from (seed, table, chunk index) within a chunk.
 */
export const CHUNK_ROWS = 10_000;
/** Few rows over very many parents must not make one chunk hold (and weigh) millions of parents. */
const MAX_PARENTS_PER_CHUNK = 100_000;

export interface ChunkSpec {
  index: number;
  /** Index, in the table, of the chunk's first row. */
  first_row: number;
  rows: number;
  /** Per-parent tables: the chunk's parents [parent_start, parent_end). */
  parent_start?: number;
  parent_end?: number;
  last: boolean;
}

export class ChunkLayout {
  readonly count: number;
  readonly rows: number;
  private readonly chunkRows: number;
  private readonly parents: number;
  private readonly parentsPerChunk: number;

  constructor(pack: PackDefinition, plan: Plan, readonly table: string) {
    const planned = plan.tables.find((t) => t.name === table);
    if (!planned) throw new Error(`table "${table}" is not part of the plan`);
    this.rows = planned.rows;
    this.chunkRows = plan.chunk_rows ?? CHUNK_ROWS;
    const parentTable = pack.tables[table].per_parent;
    this.parents = parentTable ? plan.tables.find((t) => t.name === parentTable)!.rows : 0;
    this.parentsPerChunk = parentTable && this.rows > 0 ? Math.min(MAX_PARENTS_PER_CHUNK, Math.max(1, Math.floor((this.chunkRows * this.parents) / this.rows))) : 0;
    const units = parentTable ? (this.rows > 0 ? Math.ceil(this.parents / this.parentsPerChunk) : 0) : Math.ceil(this.rows / this.chunkRows);
    // An empty table still has one (empty) chunk, which carries the CSV header or the empty JSON array.
    this.count = Math.max(1, units);
  }

  get perParent(): boolean {
    return this.parentsPerChunk > 0;
  }

  at(index: number): ChunkSpec {
    const last = index === this.count - 1;
    if (!this.perParent) {
      const first = index * this.chunkRows;
      return { index, first_row: first, rows: Math.max(0, Math.min(this.chunkRows, this.rows - first)), last };
    }
    const start = index * this.parentsPerChunk;
    const end = Math.min(this.parents, start + this.parentsPerChunk);
    const first = this.rowsBefore(start);
    return { index, first_row: first, rows: this.rowsBefore(end) - first, parent_start: start, parent_end: end, last };
  }

  private rowsBefore(parent: number): number {
    return parent >= this.parents ? this.rows : Math.floor((this.rows * parent) / this.parents);
  }
}

/**
 * How many rows each parent of a chunk gets: `total` spread by log-normal weights drawn from the chunk's
 * own stream (seed, table, chunk index), so some cards have many transactions and some none.
 */
export function rowsPerParent(seed: number, table: string, chunk: ChunkSpec): Uint32Array {
  const parents = chunk.parent_end! - chunk.parent_start!;
  const rng = new Rng(mix(tableSeed(seed, table), 0x0c4a11c), chunk.index);
  const cumulative = new Float64Array(parents);
  let total = 0;
  for (let i = 0; i < parents; i++) cumulative[i] = total += Math.exp(rng.normal(0, 0.75));
  const counts = new Uint32Array(parents);
  let assigned = 0;
  for (let i = 0; i < parents; i++) {
    const upTo = i === parents - 1 ? chunk.rows : Math.floor((chunk.rows * cumulative[i]) / total);
    counts[i] = upTo - assigned;
    assigned = upTo;
  }
  return counts;
}
