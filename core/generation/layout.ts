import type { Plan } from './plan-types.js';
import type { PackDefinition } from './pack-definition.js';
import { CHUNK_ROWS, MAX_PARENTS_PER_CHUNK } from './chunk-spec.js';
import { parentWalk, type ParentWalk } from './parent-runs.js';
import type { ChunkSpec } from './chunk-spec.js';

/**
 * How a table of a plan splits into chunks, the units of work of the pool. The split depends on the plan
 * alone (never on the number of workers), which is half of why the output is the same whatever the pool.
 * Flat tables: fixed runs of CHUNK_ROWS rows. Per-parent tables: runs of whole parents holding about
 * CHUNK_ROWS rows; the requested rows are spread over the parents, in proportion between chunks and by
 * a random draw from (seed, table, chunk index) within a chunk. Per-parent tables with `rows_per_parent`:
 * each parent has the count the pack gives it, and the table is the parents' runs in order up to the
 * requested rows, cut into chunks by a walk over the parents' counts (`ParentWalk`).
 */

export class ChunkLayout {
  readonly count: number;
  readonly rows: number;
  private readonly chunkRows: number;
  private readonly parents: number;
  private readonly parentsPerChunk: number;

  private readonly walk: ParentWalk | undefined;

  /** `walk`: the table's parent walk when it has `rows_per_parent`, if already made (else made here). */
  constructor(
    pack: PackDefinition,
    plan: Plan,
    readonly table: string,
    walk?: ParentWalk,
  ) {
    const planned = plan.tables.find((t) => t.name === table);
    if (!planned) throw new Error(`table "${table}" is not part of the plan`);
    this.rows = planned.rows;
    this.chunkRows = plan.chunk_rows ?? CHUNK_ROWS;
    const parentTable = pack.tables[table].per_parent;
    this.parents = parentTable ? plan.tables.find((t) => t.name === parentTable)!.rows : 0;
    this.walk = pack.tables[table].rows_per_parent ? (walk ?? parentWalk(pack, plan, table)) : undefined;
    this.parentsPerChunk =
      parentTable && this.rows > 0
        ? Math.min(MAX_PARENTS_PER_CHUNK, Math.max(1, Math.floor((this.chunkRows * this.parents) / this.rows)))
        : 0;
    const units = this.walk
      ? this.walk.starts.length
      : parentTable
        ? this.rows > 0
          ? Math.ceil(this.parents / this.parentsPerChunk)
          : 0
        : Math.ceil(this.rows / this.chunkRows);
    // An empty table still has one (empty) chunk, which carries the CSV header or the empty JSON array.
    this.count = Math.max(1, units);
  }

  get perParent(): boolean {
    return this.parentsPerChunk > 0;
  }

  at(index: number): ChunkSpec {
    const last = index === this.count - 1;
    if (this.walk) {
      const { starts, firstRows, end } = this.walk;
      if (starts.length === 0) return { index, first_row: 0, rows: 0, parent_start: 0, parent_end: 0, last };
      const first = firstRows[index];
      return {
        index,
        first_row: first,
        rows: (last ? this.rows : firstRows[index + 1]) - first,
        parent_start: starts[index],
        parent_end: last ? end : starts[index + 1],
        last,
      };
    }
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
