import type { PackDefinition } from './pack-definition.js';

/**
 * A generation request resolved against a pack: every table to generate or to size, its row count,
 * options with defaults applied, and validated column overrides. A plan is plain JSON (jobs store it in
 * their events) and is everything the engine needs: the same plan gives the same bytes.
 */
export interface Plan {
  sector: string;
  pack_version: string;
  seed: number;
  locale: string;
  /** The dataset's as-of date (YYYY-MM-DD); plans made before it existed hold none and use DEFAULT_AS_OF. */
  as_of?: string;
  /** Requested tables first, in request order, then the parents sized for their references. */
  tables: PlanTable[];
  /**
   * Rows per chunk of flat tables (per-parent chunks hold about as many); CHUNK_ROWS unless set. Part of
   * the plan because per-parent tables spread their rows chunk by chunk, so the split must be the same
   * everywhere. The pack test kit lowers it to cross chunk boundaries with few rows.
   */
  chunk_rows?: number;
}

export interface PlanTable {
  name: string;
  rows: number;
  /** False for a parent that is only sized so that references resolve (it is not output). */
  requested: boolean;
  options: Record<string, unknown>;
  columns: Record<string, ColumnOverride>;
}

/** A per-column override from a generation config: some parameters of the column's type, and `null_rate`. */
export type ColumnOverride = Record<string, unknown> & { null_rate?: number };

export interface PlanRequest {
  sector: string;
  seed?: number;
  locale?: string;
  as_of?: string;
  tables: {
    name: string;
    rows?: number;
    options?: Record<string, unknown>;
    columns?: Record<string, ColumnOverride>;
  }[];
}

export interface PackSource {
  require(sector: string): PackDefinition;
}
