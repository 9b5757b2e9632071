import { expect } from 'chai';
import { fileURLToPath } from 'node:url';
import { checkPack } from '../../../core/packs/test-kit.js';
import { registerPackHooks } from '../../../core/generation/pack-module-hooks.mjs';
import { generateInline, planFor, rowsOf } from '../generation/support.js';

// The example imports `finsynth/sdk` as a third-party pack does: resolved by the hooks the pack loader registers.
registerPackHooks();
const { default: loyalty, REWARDS_BY_TIER } = await import('../../../docs/examples/loyalty/index.js');
const rewardsOf = (tier: unknown): number => Object.entries(REWARDS_BY_TIER).find(([name]) => name === tier)?.[1] ?? 0;

const examplePack = fileURLToPath(new URL('../../../docs/examples/loyalty', import.meta.url));

describe("the pack author's guide example (docs/examples/loyalty)", function () {
  this.timeout(120_000);

  it('passes the pack test kit, loaded from its directory as a third-party pack', async () => {
    const report = await checkPack(examplePack, { rows: 800 });
    expect(report.pack).to.equal('loyalty');
    expect(report.tables.movements.rows).to.equal(800);
  });

  it("keeps each member's running balance: the sum of the movements, never negative", () => {
    const plan = planFor(loyalty, { seed: 8, tables: [{ name: 'movements', rows: 5000 }] });
    const balances = new Map<unknown, number>();
    for (const movement of rowsOf(generateInline(loyalty, plan, 'movements'))) {
      const balance = (balances.get(movement.member_id) ?? 0) + Number(movement.points);
      expect(movement.balance).to.equal(balance);
      expect(balance).to.be.at.least(0);
      balances.set(movement.member_id, balance);
    }
    expect(balances.size).to.be.above(100);
  });

  it('gives each member as many rewards as its tier holds, members in order', () => {
    const plan = planFor(loyalty, {
      seed: 3,
      tables: [
        { name: 'members', rows: 300 },
        { name: 'rewards', rows: 40 },
      ],
    });
    const members = rowsOf(generateInline(loyalty, plan, 'members'));
    const rewards = rowsOf(generateInline(loyalty, plan, 'rewards'));
    const expected = members
      .flatMap((member) => Array<unknown>(rewardsOf(member.tier)).fill(member.member_id))
      .slice(0, 40);
    expect(rewards.map((reward) => reward.member_id)).to.deep.equal(expected);
    // A reward runs until the last business day of the month a year after its member joined.
    const joined = new Map(members.map((member) => [member.member_id, String(member.joined_on)]));
    for (const reward of rewards) {
      const [year, month] = joined.get(reward.member_id)!.split('-').map(Number);
      const until = new Date(String(reward.valid_until));
      expect([until.getUTCFullYear(), until.getUTCMonth() + 1]).to.deep.equal([year + 1, month]);
      expect([0, 6]).not.to.include(until.getUTCDay());
      const later = new Date(until.getTime() + 86_400_000);
      expect(later.getUTCMonth() !== until.getUTCMonth() || [0, 6].includes(later.getUTCDay())).to.equal(true);
    }
  });
});
