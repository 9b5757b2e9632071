/** A column's statistics over one chunk, as a worker sends them (structured-cloneable). */
export interface ColumnChunkStatistics {
  name: string;
  nulls: number;
  /** HyperLogLog registers (hyperloglog.ts); absent for key columns, whose values are distinct by construction. */
  hll?: Uint8Array;
  /** Numbers and times (times as milliseconds since the epoch). */
  count?: number;
  sum?: number;
  min?: number;
  max?: number;
  /** Where a time column's sketch measures from (column-kind.ts, timeOrigin). */
  origin?: number;
  /** The DDSketch of the values' distance from `origin`, as its buckets' counts (value-sketch.ts). */
  sketch?: SketchBuckets;
  /** Categories: each value's rows, while there are at most MAX_CATEGORIES. */
  counts?: Record<string, number>;
  /**
   * The column's type, what the config set on it (its overrides), and whether its pack reshapes its draw (the
   * column definition's `draw_reshaped`), sent with a table's first chunk.
   */
  configured?: { type: string; params: Record<string, unknown>; draw_reshaped?: boolean };
  /** The values its null rate replaced with null in the chunk's rows (the runtime counts them); with a null rate. */
  null_rate_nulls?: number;
  /** Rule → rows breaking it, with the first such row of the chunk. */
  findings?: Record<string, RuleBreaks>;
}

/** Values counted per bucket of one sign: `counts[i]` values fell in bucket `lowest + i`. */
export interface BucketCounts {
  lowest: number;
  counts: Float64Array;
}

/**
 * A chunk's DDSketch as its workers send it: the bucket counts of its positive and negative values under the
 * sketch's mapping, and its zeros. Plain numbers clone cheaply, where a protobuf would be encoded and decoded.
 */
export interface SketchBuckets {
  positive: BucketCounts;
  negative: BucketCounts;
  zeros: number;
}

export interface RuleBreaks {
  /** The check that found it (a type's validity, `reference`, `minor-units`, …). */
  check: string;
  count: number;
  row: number;
  value: string;
}

export interface ChunkStatistics {
  rows: number;
  /** Values checked, by column and check (`<column>\u0000<check>`): the denominator of a finding's share. */
  checked: Record<string, number>;
  columns: ColumnChunkStatistics[];
  /** The table's invariants that rows broke (rule → rows), each with its first row as JSON. */
  invariants?: Record<string, RuleBreaks>;
  /** The shares the table's options ask for (its pack's `rate_targets`), sent with the first chunk. */
  rate_targets?: { option: string; column: string; value: string; configured: number }[];
}

/** Above this many distinct values a column's top values are no longer counted exactly. */
export const MAX_CATEGORIES = 256;
/** The relative accuracy of the quantile sketches: any quantile within 1 % of its true value. */
export const QUANTILE_RELATIVE_ACCURACY = 0.01;
