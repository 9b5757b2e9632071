import type { Plan } from './plan.js';
import type { PackDefinition } from '../packs/sdk.js';
import { problem } from '../problems.js';
import { GenerationProblems } from './problems.js';
import { mix, Rng, tableSeed } from './prng.js';
import { PlanRuntime } from './runtime.js';

/**
 * How a table of a plan splits into chunks, the units of work of the pool. The split depends on the plan
 * alone (never on the number of workers), which is half of why the output is the same whatever the pool.
 * Flat tables: fixed runs of CHUNK_ROWS rows. Per-parent tables: runs of whole parents holding about
 * CHUNK_ROWS rows; the requested rows are spread over the parents, in proportion between chunks and by
 * a random draw from (seed, table, chunk index) within a chunk. Per-parent tables with `rows_per_parent`:
 * each parent has the count the pack gives it, and the table is the parents' runs in order up to the
 * requested rows, cut into chunks by a walk over the parents' counts (`ParentWalk`).
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

  private readonly walk: ParentWalk | undefined;

  constructor(pack: PackDefinition, plan: Plan, readonly table: string) {
    const planned = plan.tables.find((t) => t.name === table);
    if (!planned) throw new Error(`table "${table}" is not part of the plan`);
    this.rows = planned.rows;
    this.chunkRows = plan.chunk_rows ?? CHUNK_ROWS;
    const parentTable = pack.tables[table].per_parent;
    this.parents = parentTable ? plan.tables.find((t) => t.name === parentTable)!.rows : 0;
    this.walk = pack.tables[table].rows_per_parent ? parentWalk(pack, plan, table) : undefined;
    this.parentsPerChunk = parentTable && this.rows > 0 ? Math.min(MAX_PARENTS_PER_CHUNK, Math.max(1, Math.floor((this.chunkRows * this.parents) / this.rows))) : 0;
    const units = this.walk ? this.walk.starts.length : parentTable ? (this.rows > 0 ? Math.ceil(this.parents / this.parentsPerChunk) : 0) : Math.ceil(this.rows / this.chunkRows);
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
      return { index, first_row: first, rows: (last ? this.rows : firstRows[index + 1]) - first, parent_start: starts[index], parent_end: last ? end : starts[index + 1], last };
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

/**
 * The chunks of a table with `rows_per_parent`: parents in order, each with its count, until the table's
 * rows are reached (the last parent's run may be cut there); a new chunk starts at the first parent after
 * CHUNK_ROWS rows or MAX_PARENTS_PER_CHUNK parents. `starts` and `firstRows` are each chunk's first parent
 * and first row; `end` is one past the last parent with rows. The walk runs the pack's `rows_per_parent`
 * once per parent it passes, in the thread that lays the table out; it is kept per plan (by content).
 */
export interface ParentWalk {
  starts: number[];
  firstRows: number[];
  end: number;
}

/**
 * Parents a walk may pass: it runs in the thread that plans or lays out the table (the service's main
 * thread), at the cost of generating each parent row, so it is bounded (a few seconds of work).
 */
export const MAX_WALKED_PARENTS = 250_000;
/** Walks by plan content and table: a job's plan comes back from its events as another object. */
const walks = new Map<string, ParentWalk>();
const WALKS_KEPT = 32;

export function parentWalk(pack: PackDefinition, plan: Plan, table: string, { maxParents }: { maxParents?: number } = {}): ParentWalk {
  const known = walks.get(walkKey(plan, table));
  if (known) return known;
  const definition = pack.tables[table];
  const parentTable = definition.per_parent!;
  const rows = plan.tables.find((t) => t.name === table)!.rows;
  const parents = maxParents ?? plan.tables.find((t) => t.name === parentTable)!.rows;
  const chunkRows = plan.chunk_rows ?? CHUNK_ROWS;
  const generator = new PlanRuntime(pack, plan).table(table);
  const walk: ParentWalk = { starts: [], firstRows: [], end: 0 };
  let row = 0;
  let parent = 0;
  let inChunk = chunkRows;
  let parentsInChunk = 0;
  while (row < rows) {
    if (parent >= MAX_WALKED_PARENTS) {
      throw problem(
        GenerationProblems.invalidPlan,
        `Table "${table}" asks for ${rows} rows, and its parent table "${parentTable}" decides how many rows each of its rows has: ${parent} of them hold ${row}. A request may reach through at most ${MAX_WALKED_PARENTS} of them; ask for at most ${row} rows of "${table}" in one request.`,
        { table, rows_available: row },
      );
    }
    if (parent >= parents) {
      throw problem(
        GenerationProblems.invalidPlan,
        `Table "${table}" asks for ${rows} rows, but the ${parents} rows of its parent table "${parentTable}" in this plan hold ${row} in all (the pack decides how many rows each parent has); ask for at most ${row}, or for more "${parentTable}" rows.`,
        { table, rows_available: row },
      );
    }
    if (inChunk >= chunkRows || parentsInChunk >= MAX_PARENTS_PER_CHUNK) {
      walk.starts.push(parent);
      walk.firstRows.push(row);
      inChunk = parentsInChunk = 0;
    }
    const taken = Math.min(generator.parentRows(parent), rows - row);
    row += taken;
    inChunk += taken;
    parentsInChunk++;
    parent++;
  }
  walk.end = parent;
  keep(plan, table, walk);
  return walk;
}

function walkKey(plan: Plan, table: string): string {
  return `${table}\u0000${JSON.stringify(plan)}`;
}

function keep(plan: Plan, table: string, walk: ParentWalk): void {
  if (walks.size >= WALKS_KEPT) walks.delete(walks.keys().next().value!);
  walks.set(walkKey(plan, table), walk);
}

/**
 * Tables with `rows_per_parent` in a new plan: a parent the request does not name grows until its rows'
 * runs hold the table's rows (up to 100 parents per row of the table, or `maxRows`); a requested parent
 * whose runs hold fewer rows than asked for is refused with the number they hold.
 */
export function fitParentRuns(pack: PackDefinition, plan: Plan, maxRows: number): void {
  const walked: [string, ParentWalk][] = [];
  for (const table of plan.tables) {
    const parentTable = pack.tables[table.name].rows_per_parent ? pack.tables[table.name].per_parent : undefined;
    if (!parentTable) continue;
    const parent = plan.tables.find((t) => t.name === parentTable)!;
    const walk = parentWalk(pack, plan, table.name, parent.requested ? {} : { maxParents: Math.min(maxRows, Math.max(parent.rows, 100 * table.rows)) });
    if (!parent.requested) parent.rows = Math.max(parent.rows, walk.end);
    walked.push([table.name, walk]);
  }
  // The walks hold for the plan as it now is (a parent's rows do not depend on how many there are).
  for (const [table, walk] of walked) keep(plan, table, walk);
}

/**
 * How many rows each parent of a chunk gets. With `rows_per_parent`, the pack's count (the table's last
 * parent cut to the rows that remain); without it, the chunk's rows spread by log-normal weights drawn
 * from the chunk's own stream (seed, table, chunk index), so some cards have many transactions and some
 * none; a chunk with fewer rows than parents gives one row each to parents spread evenly over it.
 */
export function rowsPerParent(runtime: PlanRuntime, table: string, chunk: ChunkSpec): Uint32Array {
  const parents = chunk.parent_end! - chunk.parent_start!;
  if (runtime.pack.tables[table].rows_per_parent) {
    const generator = runtime.table(table);
    const counts = new Uint32Array(parents);
    let left = chunk.rows;
    for (let i = 0; i < parents; i++) left -= counts[i] = Math.min(left, generator.parentRows(chunk.parent_start! + i));
    return counts;
  }
  const rng = new Rng(mix(tableSeed(runtime.plan.seed, table), 0x0c4a11c), chunk.index);
  const counts = new Uint32Array(parents);
  if (chunk.rows <= parents) {
    // Fewer rows than parents (a small sample): one row each for parents spread evenly over the chunk,
    // from a random offset, rather than weights that could pile them all on one parent.
    const offset = rng.next();
    for (let k = 0; k < chunk.rows; k++) counts[Math.floor(((k + offset) * parents) / chunk.rows)] = 1;
    return counts;
  }
  const cumulative = new Float64Array(parents);
  let total = 0;
  for (let i = 0; i < parents; i++) cumulative[i] = total += Math.exp(rng.normal(0, 0.75));
  let assigned = 0;
  for (let i = 0; i < parents; i++) {
    const upTo = i === parents - 1 ? chunk.rows : Math.floor((chunk.rows * cumulative[i]) / total);
    counts[i] = upTo - assigned;
    assigned = upTo;
  }
  return counts;
}
