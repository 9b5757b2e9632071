import { expect } from 'chai';
import { fileURLToPath } from 'node:url';
import { checkPack } from '../../core/packs/test-kit.js';
import loyalty from '../../docs/examples/loyalty/index.js';
import { generateInline, planFor, rowsOf } from '../generation/support.js';

const examplePack = fileURLToPath(new URL('../../docs/examples/loyalty', import.meta.url));

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
});
