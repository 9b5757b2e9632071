import type { GenerationPool } from '../generation/pool.js';
import type { Plan } from '../generation/plan.js';
import type { GenerationConfig } from '../configs/config-schema.js';
import { QUICK_LIMITS } from './quick-request.js';

/** Plans kept per pool, the least recently used dropped first: a plan is a few hundred bytes. */
const MAX_PLANS = 64;

const kept = new WeakMap<GenerationPool, Map<string, Promise<Plan>>>();

/**
 * The plan of a quick request's config. A request that names its seed is the kind that is sent again
 * (a fixture a test suite reproduces, a load test): the same config gives the same plan with the packs
 * a pool has loaded, so it is planned once: planning costs the main thread as much as the rest of the
 * request's own work (measured; see docs/performance.md).
 * A request without a seed has one drawn for it, is never sent again as it is, and is planned each time.
 * A plan that fails is not kept: the next request plans again and meets the same problem.
 */
export function quickPlan(pool: GenerationPool, config: GenerationConfig, seeded: boolean): Promise<Plan> {
  if (!seeded) return planQuickly(pool, config);
  let plans = kept.get(pool);
  if (!plans) kept.set(pool, (plans = new Map()));
  const key = JSON.stringify(config);
  let plan = plans.get(key);
  if (plan) {
    plans.delete(key);
  } else {
    plan = planQuickly(pool, config);
    plan.catch(() => plans.get(key) === plan && plans.delete(key));
    if (plans.size >= MAX_PLANS) plans.delete(plans.keys().next().value!);
  }
  plans.set(key, plan);
  return plan;
}

/**
 * Planning a table whose parents decide its rows walks parents in the shared pool: a quick answer may
 * walk QUICK_LIMITS.max_walked_parents of them (enough for a quick request's largest table of insurance
 * claims at the default claim frequency), so that no quick request holds the pool for long.
 */
function planQuickly(pool: GenerationPool, config: GenerationConfig): Promise<Plan> {
  return pool.plan(config, { maxWalkedParents: QUICK_LIMITS.max_walked_parents });
}
