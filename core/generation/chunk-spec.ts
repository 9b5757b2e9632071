/** Rows per chunk of a flat table (per-parent chunks hold about as many): the pool's unit of work. */
export const CHUNK_ROWS = 10_000;
/** Few rows over very many parents must not make one chunk hold (and weigh) millions of parents. */
export const MAX_PARENTS_PER_CHUNK = 100_000;

/** One chunk of a table: which rows it holds and, for a per-parent table, which parents. */
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
