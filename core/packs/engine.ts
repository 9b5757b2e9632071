import type { Config } from '../settings/settings.js';
import { loadPacks, refusalMessage } from './loader.js';
import type { PackRegistry } from './registry.js';
import type { Plan, PlanRequest } from '../generation/plan.js';
import { GenerationPool, type PoolOptions } from '../generation/pool.js';

/**
 * The engine as the rest of the service uses it: the loaded packs (the catalog), the plan builder, and
 * the pool. `createEngine` is what the composition root calls; a refused pack is reported through `warn`
 * and does not stop the others.
 *
 *   const plan = await engine.plan({ sector: 'cards', seed: 42, tables: [{ name: 'transactions', rows: 1000 }] });
 *   for await (const bytes of engine.pool.generate(plan, 'transactions', { format: 'csv', signal })) …
 *
 * Only the tables the request names are output (and charged); parents sized for references are not.
 */
export interface Engine {
  packs: PackRegistry;
  pool: GenerationPool;
  /** Counts the parents of `rows_per_parent` tables in the pool: awaiting it leaves the event loop free. */
  plan(request: PlanRequest): Promise<Plan>;
  close(): Promise<void>;
}

export async function createEngine(
  config: Pick<Config, 'poolSize' | 'packs'>,
  {
    warn = (message: string) => console.warn(message),
    pool = {},
  }: { warn?: (message: string) => void; pool?: PoolOptions } = {},
): Promise<Engine> {
  const packs = await loadPacks({ extra: config.packs });
  for (const refused of packs.refused) warn(refusalMessage(refused));
  const generationPool = new GenerationPool(packs, { size: config.poolSize, ...pool });
  return {
    packs,
    pool: generationPool,
    plan: (request) => generationPool.plan(request),
    close: () => generationPool.close(),
  };
}
