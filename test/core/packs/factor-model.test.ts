import { expect } from 'chai';
import { factorLoadings, FactorPaths } from '../../../core/packs/sdk.js';

const OPTIONS = { variance: 1e-4, alpha: 0.08, beta: 0.9, nu: 6, block_length: 260, burn_in: 50 };

describe('the SDK factor model', () => {
  it('splits an entity variance between its factors and a residual, scaling loadings past the cap', () => {
    const free = factorLoadings(0.02, [{ loading: 1, sd: 0.01 }], 0.9);
    expect(free.loadings).to.deep.equal([1]);
    expect(free.factorShare).to.be.closeTo(0.25, 1e-12);
    expect(free.residualSd ** 2 + 0.01 ** 2).to.be.closeTo(0.02 ** 2, 1e-15);
    // A beta of 2 on a factor as volatile as the entity would explain 4 + 0.25 times its variance: capped at 0.8.
    const capped = factorLoadings(
      0.01,
      [
        { loading: 2, sd: 0.01 },
        { loading: 0.5, sd: 0.01 },
      ],
      0.8,
    );
    expect(capped.factorShare).to.be.closeTo(0.8, 1e-12);
    expect(capped.loadings[0] / capped.loadings[1]).to.be.closeTo(4, 1e-12);
    expect(capped.residualSd).to.be.closeTo(Math.sqrt(0.2) * 0.01, 1e-12);
  });

  it("draws a factor's block from (scope, name, block) alone: any instance, any order, the same numbers", () => {
    const one = new FactorPaths(OPTIONS);
    const other = new FactorPaths(OPTIONS, 2);
    const later = one.block('plan-a', 'market', 12);
    other.block('plan-a', 'sector Energy', 3);
    other.block('plan-a', 'market', 11);
    expect(other.block('plan-a', 'market', 12).returns).to.deep.equal(later.returns);
    expect(one.block('plan-a', 'market', -4).returns).to.deep.equal(other.block('plan-a', 'market', -4).returns);
    expect(one.block('plan-a', 'market', 13).returns).to.not.deep.equal(later.returns);
    expect(one.block('plan-a', 'sector Energy', 12).returns).to.not.deep.equal(later.returns);
    expect(one.block('plan-b', 'market', 12).returns).to.not.deep.equal(later.returns);
    const sum = later.returns.reduce((a, b) => a + b, 0);
    expect(later.total).to.be.closeTo(sum, 1e-12);
    expect(later.sds.every((sd) => sd > 0)).to.equal(true);
  });

  it('gives factor returns the configured variance over many blocks (400 blocks, 3 scopes, within 10 %)', () => {
    // Milder tails than OPTIONS, whose sample variance converges too slowly for a tight tolerance.
    const options = { ...OPTIONS, alpha: 0.05, nu: 8 };
    const paths = new FactorPaths(options);
    for (const scope of ['a', 'b', 'c']) {
      let sum = 0;
      let count = 0;
      for (let block = 0; block < 400; block++)
        for (const r of paths.block(scope, 'market', block).returns) {
          sum += r * r;
          count++;
        }
      expect(sum / count / options.variance, `scope ${scope}`).to.be.closeTo(1, 0.1);
    }
  });
});
