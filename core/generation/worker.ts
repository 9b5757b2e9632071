import { Piscina } from 'piscina';
import type { PackDefinition } from './pack-definition.js';
import { renderChunk, renderParquetChunk } from './chunk.js';
import { ChunkLayout } from './layout.js';
import type { ChunkSpec } from './chunk-spec.js';
import { countParents } from './parent-runs.js';
import type { Row } from './types/index.js';
import type { Plan } from './plan-types.js';
import { PlanRuntime } from './runtime.js';
import { takeTurn } from './task-turn.js';
import { codecReady, type ChunkFormat, type ParquetCompression } from './parquet/codecs.js';

/** What every task of the pool works on: one table of a plan. */
export interface PlanTask {
  pack_url: string;
  /** Identifies the plan, so that a worker compiles it once for all its tasks. */
  plan_id: string;
  plan: Plan;
  table: string;
  /** The task's turn (TaskTurn): taken when a worker starts it, so that the time limit counts from then. */
  turn?: Int32Array;
}

/** One unit of work of the pool: one chunk of one table of a plan. */
export interface ChunkTask extends PlanTask {
  chunk: ChunkSpec;
  format: ChunkFormat;
  /** Parquet: the compression of its pages (snappy unless given). */
  compression?: ParquetCompression;
  /** A buffer the caller is done with, to write this chunk into when it is large enough. */
  spare?: ArrayBuffer;
  /** A module whose `observeChunk` gathers the chunk's statistics as its rows are written (ChunkObserverModule). */
  statistics_url?: string;
}

/** What a statistics module gives a worker: an observer of one chunk's rows, which it visits as it writes them. */
export interface ChunkObserver {
  visit: (row: Row, index: number) => void;
  /** The chunk's statistics, structured-cloneable, for the caller to merge in chunk order. */
  finish: () => unknown;
}

export interface ChunkObserverModule {
  observeChunk: (runtime: PlanRuntime, table: string, chunk: ChunkSpec) => ChunkObserver;
}

/** A chunk's bytes with its statistics, when a task asked for them. */
export interface ObservedChunk {
  bytes: Uint8Array;
  statistics: unknown;
}

/** Counting the rows of parents [start, end) of a table with `rows_per_parent`, for its walk. */
export interface CountTask extends PlanTask {
  start: number;
  end: number;
}

const packs = new Map<string, Promise<PackDefinition>>();
const runtimes = new Map<string, PlanRuntime>();
const MAX_RUNTIMES = 8;

function pack(url: string): Promise<PackDefinition> {
  let loading = packs.get(url);
  if (!loading) {
    loading = import(url).then((module: { default: PackDefinition }) => module.default);
    packs.set(url, loading);
  }
  return loading;
}

async function runtime(task: PlanTask): Promise<PlanRuntime> {
  let compiled = runtimes.get(task.plan_id);
  if (!compiled) {
    compiled = new PlanRuntime(await pack(task.pack_url), task.plan);
    if (runtimes.size >= MAX_RUNTIMES) runtimes.delete(runtimes.keys().next().value!);
    runtimes.set(task.plan_id, compiled);
  }
  return compiled;
}

/** Generates the chunk and moves its bytes to the main thread (a transfer, not a copy). */
export async function generateChunk(task: ChunkTask): Promise<Uint8Array | ObservedChunk | null> {
  if (!takeTurn(task.turn)) return null;
  const compiled = await runtime(task);
  const observer = task.statistics_url
    ? (await observers(task.statistics_url)).observeChunk(compiled, task.table, task.chunk)
    : undefined;
  let bytes: Uint8Array;
  if (task.format === 'parquet') {
    const compression = task.compression ?? 'snappy';
    await codecReady(compression);
    bytes = renderParquetChunk(compiled, task.table, task.chunk, compression, task.spare, observer?.visit);
  } else bytes = renderChunk(compiled, task.table, task.chunk, task.format, task.spare, observer?.visit);
  if (!observer) return Piscina.move(bytes) as unknown as Uint8Array;
  // The bytes still move; the statistics, a few kB, are copied beside them.
  const observed: ObservedChunk = { bytes, statistics: observer.finish() };
  const moved = {
    get [Piscina.transferableSymbol]() {
      return bytes.buffer;
    },
    get [Piscina.valueSymbol]() {
      return observed;
    },
  };
  return Piscina.move(moved as never) as unknown as ObservedChunk;
}

const observerModules = new Map<string, Promise<ChunkObserverModule>>();

/** The statistics module, loaded by URL as packs are: the engine does not depend on what it gathers. */
function observers(url: string): Promise<ChunkObserverModule> {
  let loading = observerModules.get(url);
  if (!loading) observerModules.set(url, (loading = import(url) as Promise<ChunkObserverModule>));
  return loading;
}

/** The parents' counts, moved to the main thread. */
export async function countParentsOf(task: CountTask): Promise<Uint32Array | null> {
  if (!takeTurn(task.turn)) return null;
  const counts = countParents(await runtime(task), task.table, task.start, task.end);
  return Piscina.move(counts) as unknown as Uint32Array;
}

/** GenerationPool.warm's task: the same for every worker, which each get exactly one. */
export interface WarmUpTask {
  /** A small plan of each table of each pack. */
  tables: { pack_url: string; plan: Plan; table: string }[];
  /**
   * [0] counts the workers holding a warm-up task (each waits for all of them before starting), [1] hands out
   * slots, and from WARM_UP_SLOTS on each worker's slot holds the index + 1 of the table it is warming.
   */
  barrier: Int32Array;
  workers: number;
}

/** Where the workers' slots begin in a warm-up task's barrier. */
export const WARM_UP_SLOTS = 2;

/** How long a worker waits at the barrier for the others to boot before warming up regardless. */
const BARRIER_MS = 30_000;

/**
 * Loads every pack and writes each of its tables in a small plan: the packs' modules,
 * their reference and locale data and the writers are then ready, and the hot code compiled. Waiting for
 * every worker to hold a warm-up task first is what gives each worker one (a worker busy waiting takes
 * no second task), rather than the first worker up taking them all.
 */
export async function warmUp({ tables, barrier, workers }: WarmUpTask): Promise<void> {
  // Each worker's slot says which table it is warming (its index + 1), so that a warm-up that hangs names it.
  const slot = WARM_UP_SLOTS + (Atomics.add(barrier, 1, 1) % workers);
  Atomics.add(barrier, 0, 1);
  Atomics.notify(barrier, 0);
  const deadline = Date.now() + BARRIER_MS;
  for (
    let holding = Atomics.load(barrier, 0);
    holding < workers && Date.now() < deadline;
    holding = Atomics.load(barrier, 0)
  )
    Atomics.wait(barrier, 0, holding, 50);
  for (const [index, { pack_url, plan, table }] of tables.entries()) {
    Atomics.store(barrier, slot, index + 1);
    try {
      const definition = await pack(pack_url);
      renderChunk(new PlanRuntime(definition, plan), table, new ChunkLayout(definition, plan, table).at(0), 'ndjson');
    } catch (error) {
      // The operator reads this in the service's log: it names the pack and table at fault, not only the pool.
      throw new Error(
        `sector pack "${plan.sector}" (${pack_url}), table "${table}": ${(error as Error)?.message ?? String(error)}`,
        { cause: error },
      );
    }
  }
}
