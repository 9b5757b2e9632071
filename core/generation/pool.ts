import { setMaxListeners } from 'node:events';
import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import { CountingUnexpectedErrors, type UnexpectedErrors } from '../faults/unexpected-errors.js';
import { problem } from '../problems.js';
import type { LoadedPacks, PackDefinition } from './pack-definition.js';
import { hashString } from './random/prng.js';
import { ChunkLayout } from './layout.js';
import { parentWalkWith, type ParentWalk, type WalkOptions } from './parent-runs.js';
import { buildPlan, buildPlanWith, type Plan, type PlanLimits, type PlanRequest } from './plan.js';
import { GenerationProblems } from './problems.js';
import { TaskTurn } from './task-turn.js';
import {
  WARM_UP_SLOTS,
  type ChunkTask,
  type ObservedChunk,
  type CountTask,
  type PlanTask,
  type WarmUpTask,
} from './worker.js';
import { parquetFile } from './parquet/file.js';
import type { ChunkFormat, ParquetCompression } from './parquet/codecs.js';

export interface PoolOptions {
  /** Worker threads (default: the machine's cores). */
  size?: number;
  /** A chunk that takes longer fails, and its worker is replaced: a generator that never returns. */
  chunkTimeoutMs?: number;
  /** Heap limit of each worker: a generator that exhausts it fails its chunk, not the service. */
  workerMemoryMb?: number;
  /** Where an `'error'` event of the pool is reported (an answer for a task it no longer knows, say). */
  faults?: UnexpectedErrors;
}

export interface GenerateOptions {
  /** Parquet: the pool yields the whole file, its row groups written by the workers (parquet/file.ts). */
  format: ChunkFormat;
  /** Parquet: the compression of its pages (snappy unless given). */
  compression?: ParquetCompression;
  signal?: AbortSignal;
  /** Called after each chunk is delivered, with the rows delivered so far and the table's total. */
  onProgress?: (rowsDone: number, rowsTotal: number) => void;
  /**
   * The caller is done with each chunk when it asks for the next (it keeps no reference to its bytes):
   * the chunk's buffer then goes back to a worker, which writes a later chunk into it. A job's file
   * writer does so; the main thread then receives no new buffer per chunk, and never collects them.
   */
  recycle?: boolean;
  /**
   * Statistics of every chunk, gathered by the workers as they write its rows (worker.ts, ChunkObserverModule):
   * `url` is the module that gathers them, and `onChunk` receives each chunk's, in chunk order, before its bytes.
   */
  statistics?: { url: string; onChunk: (statistics: unknown, chunk: number) => void };
}

/** Rows of each table a worker writes to warm up. */
const WARM_UP_ROWS = 20;

/**
 * The generation pool: piscina worker threads that turn chunks of a plan into bytes. `generate` yields a
 * table's chunks in order while keeping a bounded number in flight (memory stays bounded whatever the
 * table's size), so a caller streams millions of rows to a file or a response without holding them.
 * The same plan yields the same bytes whatever the pool's size.
 */
export class GenerationPool {
  readonly size: number;
  private readonly piscina: Piscina;
  private readonly chunkTimeoutMs: number;
  private readonly workerMemoryMb: number;
  private closing = false;

  constructor(
    private readonly packs: LoadedPacks,
    {
      size = availableParallelism(),
      chunkTimeoutMs = 30_000,
      workerMemoryMb = 512,
      faults = new CountingUnexpectedErrors(),
    }: PoolOptions = {},
  ) {
    this.size = Math.max(1, Math.floor(size));
    this.chunkTimeoutMs = chunkTimeoutMs;
    this.workerMemoryMb = workerMemoryMb;
    this.piscina = new Piscina({
      filename: new URL('./worker-entry.mjs', import.meta.url).href,
      minThreads: this.size,
      maxThreads: this.size,
      idleTimeout: 60_000,
      // A small young generation per worker: a chunk's garbage is short-lived and small; a larger one raised
      // peak memory past the service's bound for a few per cent of throughput (see docs/performance.md).
      resourceLimits: { maxOldGenerationSizeMb: workerMemoryMb, maxYoungGenerationSizeMb: 16 },
    });
    // Unheard, an 'error' event of the pool ends the process; each task's own failure reaches its caller.
    this.piscina.on('error', (error: unknown) => faults.report('generation-pool', error));
  }

  /**
   * The table's bytes, chunk by chunk, in order. Aborting `signal`, or breaking out of the loop, stops
   * at once: queued chunks are dropped, and chunks already running finish in their workers and are
   * discarded (terminating a worker mid-chunk would cost a worker restart; the time limit still bounds them).
   */
  generate(plan: Plan, table: string, options: GenerateOptions): AsyncGenerator<Uint8Array> {
    const chunks = this.chunks(plan, table, options);
    return options.format === 'parquet' ? parquetFile(chunks) : chunks;
  }

  /** The table's chunks as the workers write them, in order. */
  private async *chunks(
    plan: Plan,
    table: string,
    { format, compression, signal, onProgress, recycle = false, statistics }: GenerateOptions,
  ): AsyncGenerator<Uint8Array> {
    signal?.throwIfAborted();
    const pack = this.packs.loaded(plan.sector);
    // A walk is usually kept from planning; a job's plan after a restart has its walk made again here.
    const walk = pack.definition.tables[table].rows_per_parent
      ? await this.walkParents(pack.definition, plan, table, { signal })
      : undefined;
    const layout = new ChunkLayout(pack.definition, plan, table, walk);
    const base = {
      pack_url: pack.module_url,
      plan_id: planId(plan),
      plan,
      table,
      format,
      compression,
      ...(statistics ? { statistics_url: statistics.url } : {}),
    };
    const stop = new AbortController();
    // Each chunk in flight listens to it twice (its turn, and the wait for its answer): no leak to warn of.
    setMaxListeners(4 * this.size + 10, stop.signal);
    const abort = () => stop.abort(signal?.reason);
    signal?.addEventListener('abort', abort, { once: true });
    const inFlight: Promise<Uint8Array | ObservedChunk>[] = [];
    const window = this.size * 2;
    // Buffers the caller is done with, each given to the next chunk sent to a worker.
    const spares: ArrayBuffer[] = [];
    let next = 0;
    let delivered = 0;
    let rowsDone = 0;
    try {
      while (next < layout.count || inFlight.length) {
        while (next < layout.count && inFlight.length < window) {
          const running = this.runChunk({ ...base, chunk: layout.at(next++), spare: spares.pop() }, stop.signal);
          running.catch(() => undefined); // observed when its turn comes; avoid an unhandled rejection before then
          inFlight.push(running);
        }
        const answer = await settledOrAborted(inFlight.shift()!, stop.signal);
        let bytes: Uint8Array;
        if (answer instanceof Uint8Array) bytes = answer;
        else {
          bytes = answer.bytes;
          statistics?.onChunk(answer.statistics, delivered);
        }
        rowsDone += layout.at(delivered++).rows;
        yield bytes;
        if (recycle) spares.push(bytes.buffer as ArrayBuffer);
        onProgress?.(rowsDone, layout.rows);
      }
    } finally {
      signal?.removeEventListener('abort', abort);
      if (!stop.signal.aborted) stop.abort(new Error('generation stopped'));
    }
  }

  /**
   * Has every worker load the TypeScript loader, every pack and its data, and write a few rows of each
   * table, so that the first generation after a start does not pay for it.
   * Each worker gets one warm-up task; a pack that fails or hangs in it fails the warm-up (within the
   * chunk time limit) and its worker is replaced, as it would have been on its first chunk.
   */
  async warm(): Promise<void> {
    const tables = this.packs.names().flatMap((sector) => {
      const { definition, module_url } = this.packs.loaded(sector);
      return Object.keys(definition.tables).map((table) => ({
        pack_url: module_url,
        plan: buildPlan(this.packs, { sector, seed: 0, tables: [{ name: table, rows: WARM_UP_ROWS }] }),
        table,
      }));
    });
    const barrier = new Int32Array(new SharedArrayBuffer(4 * (WARM_UP_SLOTS + this.size)));
    const task: WarmUpTask = { tables, barrier, workers: this.size };
    const limitMs = 2 * this.chunkTimeoutMs;
    const warming = Array.from({ length: this.size }, () =>
      this.piscina.run(task, { name: 'warmUp', signal: AbortSignal.timeout(limitMs) }),
    );
    await Promise.all(warming).catch((error: unknown) => {
      if (this.closing) return; // closed while warming: nothing is left to warm
      if ((error as Error)?.name !== 'AbortError') throw error;
      // Timed out: the tables the workers were still warming name the pack that hangs.
      const stuck = [...barrier.subarray(WARM_UP_SLOTS)]
        .filter((table) => table > 0)
        .map((table) => `sector pack "${tables[table - 1].plan.sector}", table "${tables[table - 1].table}"`);
      throw new Error(
        `the warm-up did not finish within ${limitMs / 1000} s, ` +
          `still at ${[...new Set(stuck)].join(', ') || 'its start'}`,
        { cause: error },
      );
    });
  }

  /** The whole table in memory: for small results (quick generation), never for jobs. */
  async bytes(plan: Plan, table: string, options: GenerateOptions): Promise<Buffer> {
    const chunks: Uint8Array[] = [];
    for await (const chunk of this.generate(plan, table, options)) chunks.push(chunk);
    return Buffer.concat(chunks);
  }

  /**
   * The plan of a request, the walks of its `rows_per_parent` tables counted by the workers: the main
   * thread only adds counts up, so planning a large table never holds up the service's other requests.
   */
  plan(request: PlanRequest, limits?: PlanLimits): Promise<Plan> {
    return buildPlanWith(
      this.packs,
      request,
      (pack, plan, table, options) => this.walkParents(pack, plan, table, options),
      limits,
    );
  }

  private walkParents(
    pack: PackDefinition,
    plan: Plan,
    table: string,
    options: WalkOptions & { signal?: AbortSignal },
  ): Promise<ParentWalk> {
    const task = { pack_url: this.packs.loaded(plan.sector).module_url, plan_id: planId(plan), plan, table };
    const count = (start: number, end: number, stop: AbortSignal) => {
      const range: CountTask = { ...task, start, end };
      return this.run<Uint32Array>(
        range,
        'countParentsOf',
        `parents ${start}–${end - 1} of its parent table (counting its rows per parent)`,
        {},
        stop,
      );
    };
    return parentWalkWith(pack, plan, table, count, { ...options, parallel: 2 * this.size });
  }

  private runChunk(task: ChunkTask, stop: AbortSignal): Promise<Uint8Array | ObservedChunk> {
    const lastRow = task.chunk.first_row + task.chunk.rows - 1;
    const where = `chunk ${task.chunk.index} (rows ${task.chunk.first_row}–${lastRow})`;
    return this.run<Uint8Array | ObservedChunk>(
      task,
      'default',
      where,
      { chunk: task.chunk.index },
      stop,
      task.spare ? [task.spare] : [],
    );
  }

  /**
   * `where`: the part of the table the task works on, for its problem if it fails. `transfer`: buffers the
   * task moves to its worker.
   */
  private async run<T>(
    task: PlanTask,
    name: string,
    where: string,
    extensions: Record<string, unknown>,
    stop: AbortSignal,
    transfer: ArrayBuffer[] = [],
  ): Promise<T> {
    // Stopping never aborts a task in piscina: aborting one that a worker has just begun terminates that
    // worker, and its answer could then reach a pool that no longer knows the task. A task still waiting
    // is skipped by its worker instead (the turn says so), and one already running finishes, unread.
    // Only the time limit, which runs from the moment a worker takes its turn, terminates a worker.
    if (stop.aborted) throw stop.reason;
    const turn = new TaskTurn();
    const timeout = new AbortController();
    let timedOut = false;
    let answered = false;
    let timer: NodeJS.Timeout | undefined;
    turn.started().then(
      () => {
        // The answer may come before the news that the worker started: no time limit is left running then (it
        // would keep a process that is done alive for the whole limit).
        if (answered) return;
        timer = setTimeout(() => {
          timedOut = true;
          timeout.abort();
        }, this.chunkTimeoutMs);
      },
      () => undefined,
    );
    const answer = this.piscina.run(
      { ...task, turn: turn.shared },
      { name, signal: timeout.signal, transferList: transfer },
    );
    // The time limit holds until the worker answers, even when the caller stopped waiting before.
    answer.then(settled, settled);
    function settled() {
      answered = true;
      clearTimeout(timer);
      turn.settle();
    }
    const onStop = () => turn.skip();
    stop.addEventListener('abort', onStop, { once: true });
    try {
      return (await settledOrAborted(answer, stop)) as T;
    } catch (error) {
      if (stop.aborted && !timedOut) throw stop.reason ?? error;
      throw problem(
        GenerationProblems.generationFailed,
        `Sector pack "${task.plan.sector}", table "${task.table}", ${where}: ` +
          `${reason(error, timedOut, this.chunkTimeoutMs, this.workerMemoryMb)}`,
        { sector: task.plan.sector, table: task.table, ...extensions },
      );
    } finally {
      stop.removeEventListener('abort', onStop);
    }
  }

  async close(): Promise<void> {
    this.closing = true;
    await this.piscina.destroy();
  }
}

/** Identifies a plan to the workers, which compile each plan once for all its tasks. */
function planId(plan: Plan): string {
  const json = JSON.stringify(plan);
  return `${hashString(json).toString(36)}-${json.length}`;
}

/**
 * `promise`, or a rejection as soon as `signal` aborts. Not `Promise.race` with one promise that waits
 * for the abort: each race leaves a reaction on that long-lived promise holding the race's result, so
 * every chunk of a table would stay reachable until the table ended (memory growing with the output).
 */
function settledOrAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function reason(error: unknown, timedOut: boolean, timeoutMs: number, memoryMb: number): string {
  if (timedOut)
    return `the generator did not finish within ${timeoutMs / 1000} s (an endless loop?); its worker was replaced.`;
  const { code, message } = error as { code?: string; message?: string };
  if (code === 'ERR_WORKER_OUT_OF_MEMORY' || /out of memory|heap limit/i.test(message ?? '')) {
    return `the generator ran out of memory (worker heap limit ${memoryMb} MB); its worker was replaced.`;
  }
  return `the generator failed: ${message ?? String(error)}`;
}
