import type { Plan } from './plan-types.js';
import type { PackDefinition } from './pack-definition.js';
import { problem } from '../problems.js';
import { CHUNK_ROWS, MAX_PARENTS_PER_CHUNK } from './chunk-spec.js';
import type { ChunkSpec } from './chunk-spec.js';
import { GenerationProblems } from './problems.js';
import { mix, Rng, tableSeed } from './random/prng.js';
import { PlanRuntime } from './runtime.js';

/*
 * How many rows each parent of a per-parent table has: the pack's counts (`rows_per_parent`), the walk
 * over them that lays such a table out, and the spread of the requested rows for tables without.
 */

/**
 * The chunks of a table with `rows_per_parent`: parents in order, each with its count, until the table's
 * rows are reached (the last parent's run may be cut there); a new chunk starts at the first parent after
 * CHUNK_ROWS rows or MAX_PARENTS_PER_CHUNK parents. `starts` and `firstRows` are each chunk's first parent
 * and first row; `end` is one past the last parent with rows. The walk runs the pack's `rows_per_parent`
 * once per parent it passes; it is kept per plan (by content).
 */
export interface ParentWalk {
  starts: number[];
  firstRows: number[];
  end: number;
}

/**
 * Parents a walk may pass. Counting a parent generates its row (done by the pool's workers for the
 * service), so this bounds how long planning may take (see docs/performance.md).
 */
export const MAX_WALKED_PARENTS = 10_000_000;
/** Parents counted per task of the pool: a short task with a small transfer (see docs/performance.md). */
const PARENTS_PER_COUNT = 50_000;
/** Fewer parents per task cost more in messages than they save in counting past the rows needed. */
const MIN_PARENTS_PER_COUNT = 256;
/** Walks by plan content and table: a job's plan comes back from its events as another object. */
const walks = new Map<string, ParentWalk>();
const WALKS_KEPT = 32;

/** The pack's count of each parent in [start, end) of a table with `rows_per_parent` (whole runs). */
export function countParents(runtime: PlanRuntime, table: string, start: number, end: number): Uint32Array {
  const generator = runtime.table(table);
  const counts = new Uint32Array(end - start);
  // A run longer than 2^32 - 1 rows is cut anyway: a table has at most MAX_TABLE_ROWS.
  for (let i = 0; i < counts.length; i++) counts[i] = Math.min(0xffff_ffff, generator.parentRows(start + i));
  return counts;
}

/**
 * A walk fed with its parents' counts in order, in ranges it chooses: about as many parents as the rows
 * still missing need at the rows per parent seen so far. The one place that turns counts into chunks,
 * whether they are counted in the calling thread (`parentWalk`) or by the pool (`parentWalkWith`).
 */
class Walking {
  readonly walk: ParentWalk = { starts: [], firstRows: [], end: 0 };
  /** Parents that may be counted. */
  readonly limit: number;
  private readonly rows: number;
  private readonly parents: number;
  private readonly parentTable: string;
  private readonly chunkRows: number;
  private row = 0;
  private inChunk: number;
  private parentsInChunk = 0;

  private readonly maxWalked: number;

  constructor(
    pack: PackDefinition,
    plan: Plan,
    private readonly table: string,
    { maxParents, maxWalked = MAX_WALKED_PARENTS }: WalkOptions,
  ) {
    this.parentTable = pack.tables[table].per_parent!;
    this.rows = plan.tables.find((t) => t.name === table)!.rows;
    this.parents = maxParents ?? plan.tables.find((t) => t.name === this.parentTable)!.rows;
    this.maxWalked = maxWalked;
    this.limit = Math.min(this.parents, maxWalked);
    this.chunkRows = plan.chunk_rows ?? CHUNK_ROWS;
    this.inChunk = this.chunkRows;
  }

  get done(): boolean {
    return this.row >= this.rows;
  }

  /** Parents worth counting, going by the counts so far (a little over, so that one more round usually suffices). */
  get wanted(): number {
    const perParent = this.row > 0 ? this.row / this.walk.end : 1;
    return Math.min(this.limit, this.walk.end + Math.ceil((1.1 * (this.rows - this.row)) / perParent) + 16);
  }

  /** Where the range of parents to count from `start` ends, when `tasks` ranges are counted at once. */
  rangeEnd(start: number, tasks: number): number {
    const share = Math.ceil((this.wanted - this.walk.end) / tasks);
    return Math.min(this.limit, start + Math.min(PARENTS_PER_COUNT, Math.max(MIN_PARENTS_PER_COUNT, share)));
  }

  /** The counts of the next parents (from `walk.end`); those past the table's rows are ignored. */
  take(counts: Uint32Array): void {
    const walk = this.walk;
    for (let i = 0; i < counts.length && this.row < this.rows; i++) {
      if (this.inChunk >= this.chunkRows || this.parentsInChunk >= MAX_PARENTS_PER_CHUNK) {
        walk.starts.push(walk.end);
        walk.firstRows.push(this.row);
        this.inChunk = this.parentsInChunk = 0;
      }
      const taken = Math.min(counts[i], this.rows - this.row);
      this.row += taken;
      this.inChunk += taken;
      this.parentsInChunk++;
      walk.end++;
    }
  }

  /** The walk, once every parent it may count is counted; refused if they hold fewer rows than asked. */
  result(): ParentWalk {
    if (this.done) return this.walk;
    const { table, rows, row, parentTable } = this;
    if (this.parents > this.maxWalked) {
      const beyond = this.maxWalked < MAX_WALKED_PARENTS ? ` (a job may reach through ${MAX_WALKED_PARENTS})` : '';
      throw problem(
        GenerationProblems.invalidPlan,
        `Table "${table}" asks for ${rows} rows, and its parent table "${parentTable}" decides how many rows each ` +
          `of its rows has: ${this.walk.end} of them hold ${row}. This request may reach through at most ` +
          `${this.maxWalked} of them${beyond}; ask for at most ${row} rows of "${table}".`,
        { table, rows_available: row, max_walked_parents: this.maxWalked },
      );
    }
    throw problem(
      GenerationProblems.invalidPlan,
      `Table "${table}" asks for ${rows} rows, but the ${this.parents} rows of its parent table "${parentTable}" ` +
        `in this plan hold ${row} in all (the pack decides how many rows each parent has); ` +
        `ask for at most ${row}, or for more "${parentTable}" rows.`,
      { table, rows_available: row },
    );
  }
}

export interface WalkOptions {
  /** Parents the walk may count when the parent table's rows are not given (an unrequested parent grows). */
  maxParents?: number;
  /**
   * Parents the walk may pass at most: MAX_WALKED_PARENTS, or fewer for a request that must answer at
   * once (quick generation).
   */
  maxWalked?: number;
}

/** The walk counted in the calling thread: for callers without a pool (the pack test kit, tests). */
export function parentWalk(pack: PackDefinition, plan: Plan, table: string, options: WalkOptions = {}): ParentWalk {
  const known = walks.get(walkKey(plan, table));
  if (known) return known;
  const walking = new Walking(pack, plan, table, options);
  const runtime = new PlanRuntime(pack, plan);
  while (!walking.done && walking.walk.end < walking.limit) {
    const start = walking.walk.end;
    walking.take(countParents(runtime, table, start, walking.rangeEnd(start, 1)));
  }
  return keep(plan, table, walking.result());
}

/** Counts parents [start, end) elsewhere (a worker); `stop` says the counts are no longer needed. */
export type CountParentsAsync = (start: number, end: number, stop: AbortSignal) => Promise<Uint32Array>;

/**
 * The walk with its parents counted by `count`, `parallel` ranges at a time, taken in order: what the
 * service does, so that its main thread only turns counts into chunks. Ranges still counting when the
 * rows are reached are dropped.
 */
export async function parentWalkWith(
  pack: PackDefinition,
  plan: Plan,
  table: string,
  count: CountParentsAsync,
  { parallel, signal, ...options }: WalkOptions & { parallel: number; signal?: AbortSignal },
): Promise<ParentWalk> {
  const known = walks.get(walkKey(plan, table));
  if (known) return known;
  const walking = new Walking(pack, plan, table, options);
  const stop = new AbortController();
  const abort = () => stop.abort(signal?.reason);
  signal?.addEventListener('abort', abort, { once: true });
  const counting: Promise<Uint32Array>[] = [];
  let next = 0;
  try {
    while (!walking.done && (counting.length || next < walking.limit)) {
      while (next < walking.wanted && counting.length < parallel) {
        const end = walking.rangeEnd(next, parallel);
        const counted = count(next, end, stop.signal);
        counted.catch(() => undefined); // observed when its turn comes
        counting.push(counted);
        next = end;
      }
      walking.take(await counting.shift()!);
    }
  } finally {
    signal?.removeEventListener('abort', abort);
    stop.abort(new Error('walk finished'));
  }
  return keep(plan, table, walking.result());
}

function walkKey(plan: Plan, table: string): string {
  return `${table}\u0000${JSON.stringify(plan)}`;
}

function keep(plan: Plan, table: string, walk: ParentWalk): ParentWalk {
  if (walks.size >= WALKS_KEPT) walks.delete(walks.keys().next().value!);
  walks.set(walkKey(plan, table), walk);
  return walk;
}

/** One walk a new plan needs: the table, and how far an unrequested parent table may grow. */
interface NeededWalk extends WalkOptions {
  table: string;
}

/**
 * Tables with `rows_per_parent` in a new plan: a parent the request does not name grows until its rows'
 * runs hold the table's rows (up to 100 parents per row of the table, or `maxRows`); a requested parent
 * whose runs hold fewer rows than asked for is refused with the number they hold. Yields the walks it
 * needs, in order (each may grow a parent the next one walks), and is given them back.
 */
function* fittingParentRuns(
  pack: PackDefinition,
  plan: Plan,
  maxRows: number,
  maxWalked?: number,
): Generator<NeededWalk, void, ParentWalk> {
  const walked: [string, ParentWalk][] = [];
  for (const table of plan.tables) {
    const parentTable = pack.tables[table.name].rows_per_parent ? pack.tables[table.name].per_parent : undefined;
    if (!parentTable) continue;
    const parent = plan.tables.find((t) => t.name === parentTable)!;
    const walk = yield {
      table: table.name,
      maxParents: parent.requested ? undefined : Math.min(maxRows, Math.max(parent.rows, 100 * table.rows)),
      maxWalked,
    };
    if (!parent.requested) parent.rows = Math.max(parent.rows, walk.end);
    walked.push([table.name, walk]);
  }
  // The walks hold for the plan as it now is (a parent's rows do not depend on how many there are).
  for (const [table, walk] of walked) keep(plan, table, walk);
}

/** `fittingParentRuns` with its walks counted in the calling thread. */
export function fitParentRuns(pack: PackDefinition, plan: Plan, maxRows: number): void {
  const fitting = fittingParentRuns(pack, plan, maxRows);
  for (let step = fitting.next(); !step.done;)
    step = fitting.next(parentWalk(pack, plan, step.value.table, step.value));
}

/** `fittingParentRuns` with its walks made by `walk` (the pool's, for the service). */
export async function fitParentRunsWith(
  pack: PackDefinition,
  plan: Plan,
  maxRows: number,
  walk: (table: string, options: WalkOptions) => Promise<ParentWalk>,
  maxWalked?: number,
): Promise<void> {
  const fitting = fittingParentRuns(pack, plan, maxRows, maxWalked);
  for (let step = fitting.next(); !step.done;) step = fitting.next(await walk(step.value.table, step.value));
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
    const counts = countParents(runtime, table, chunk.parent_start!, chunk.parent_end!);
    let left = chunk.rows;
    for (let i = 0; i < parents; i++) left -= counts[i] = Math.min(left, counts[i]);
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
