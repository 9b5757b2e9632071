import type { MessagePort } from 'node:worker_threads';
import { Piscina } from 'piscina';
import type { PackDefinition } from '../packs/sdk.js';
import { renderChunk } from './chunk.js';
import type { ChunkSpec } from './layout.js';
import type { Plan } from './plan.js';
import { PlanRuntime } from './runtime.js';
import type { Format } from './writers.js';

/** One unit of work of the pool: one chunk of one table of a plan. */
export interface ChunkTask {
  pack_url: string;
  /** Identifies the plan, so that a worker compiles it once for all its chunks. */
  plan_id: string;
  plan: Plan;
  table: string;
  chunk: ChunkSpec;
  format: Format;
  /** Told when this worker starts the chunk: the pool's time limit counts from then, not from queueing. */
  started?: MessagePort;
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

async function runtime(task: ChunkTask): Promise<PlanRuntime> {
  let compiled = runtimes.get(task.plan_id);
  if (!compiled) {
    compiled = new PlanRuntime(await pack(task.pack_url), task.plan);
    if (runtimes.size >= MAX_RUNTIMES) runtimes.delete(runtimes.keys().next().value!);
    runtimes.set(task.plan_id, compiled);
  }
  return compiled;
}

/** Generates the chunk and moves its bytes to the main thread (a transfer, not a copy). */
export async function generateChunk(task: ChunkTask): Promise<Uint8Array> {
  task.started?.postMessage('started');
  task.started?.close();
  const bytes = renderChunk(await runtime(task), task.table, task.chunk, task.format);
  return Piscina.move(bytes) as unknown as Uint8Array;
}
