import { expect } from 'chai';
import { quickPlan } from '../../../core/quick/quick-plans.js';
import type { GenerationConfig } from '../../../core/configs/config-schema.js';
import type { GenerationPool } from '../../../core/generation/pool.js';
import type { Plan } from '../../../core/generation/plan.js';

/** A pool that counts its plannings and plans what `planOf` says. */
function countingPool(
  planOf: (config: GenerationConfig) => Promise<Plan> = async (config) =>
    ({ sector: config.sector, seed: config.seed }) as Plan,
) {
  const pool = { plannings: 0, plan: (config: GenerationConfig) => ((pool.plannings += 1), planOf(config)) };
  return pool;
}
const asPool = (pool: ReturnType<typeof countingPool>) => pool as unknown as GenerationPool;
const config = (seed: number, rows = 1000): GenerationConfig => ({
  version: 1,
  sector: 'cards',
  seed,
  tables: [{ name: 'transactions', rows }],
});

describe('quick plans', () => {
  it('plans a seeded config once: the same config again gets the same plan', async () => {
    const pool = countingPool();
    const first = await quickPlan(asPool(pool), config(1), true);
    const again = await quickPlan(asPool(pool), config(1), true);
    expect(again).to.equal(first);
    expect(pool.plannings).to.equal(1);
  });

  it('plans another seed or another table size anew', async () => {
    const pool = countingPool();
    await quickPlan(asPool(pool), config(1), true);
    const otherSeed = await quickPlan(asPool(pool), config(2), true);
    await quickPlan(asPool(pool), config(1, 10), true);
    expect(otherSeed.seed).to.equal(2);
    expect(pool.plannings).to.equal(3);
  });

  it('plans every request whose seed was drawn for it', async () => {
    const pool = countingPool();
    await quickPlan(asPool(pool), config(5), false);
    await quickPlan(asPool(pool), config(5), false);
    expect(pool.plannings).to.equal(2);
  });

  it('keeps no plan that failed: the next request plans again', async () => {
    let fail = true;
    const pool = countingPool(async (planned) => {
      if (fail) throw new Error('unknown locale');
      return { sector: planned.sector, seed: planned.seed } as Plan;
    });
    await quickPlan(asPool(pool), config(1), true).then(
      () => expect.fail('the plan should have failed'),
      (error: Error) => expect(error.message).to.equal('unknown locale'),
    );
    fail = false;
    expect((await quickPlan(asPool(pool), config(1), true)).seed).to.equal(1);
    expect(pool.plannings).to.equal(2);
  });

  it('never shares plans between pools, which may have other packs loaded', async () => {
    const one = countingPool();
    const other = countingPool();
    await quickPlan(asPool(one), config(1), true);
    await quickPlan(asPool(other), config(1), true);
    expect([one.plannings, other.plannings]).to.deep.equal([1, 1]);
  });
});
