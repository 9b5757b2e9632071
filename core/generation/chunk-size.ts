/** Rows per chunk of a flat table (per-parent chunks hold about as many): the pool's unit of work. */
export const CHUNK_ROWS = 10_000;
/** Few rows over very many parents must not make one chunk hold (and weigh) millions of parents. */
export const MAX_PARENTS_PER_CHUNK = 100_000;
