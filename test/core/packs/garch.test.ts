import { expect } from 'chai';
import { Garch, gamma, garchKurtosis, Rng, studentT } from '../../../core/packs/sdk.js';

const SEEDS = [1, 2, 3, 4, 5];
function mean(values: ArrayLike<number>): number {
  let sum = 0;
  for (let i = 0; i < values.length; i++) sum += values[i];
  return sum / values.length;
}

function moments(values: Float64Array) {
  const m = mean(values);
  let m2 = 0;
  let m4 = 0;
  for (const v of values) {
    m2 += (v - m) ** 2;
    m4 += (v - m) ** 4;
  }
  m2 /= values.length;
  m4 /= values.length;
  return { mean: m, variance: m2, excessKurtosis: m4 / (m2 * m2) - 3 };
}

const draws = (n: number, draw: () => number) => Float64Array.from({ length: n }, draw);

describe('the SDK GARCH model', () => {
  it('draws Gamma(shape) with mean and variance shape (200,000 draws, within 2 %)', () => {
    for (const seed of SEEDS) {
      const rng = new Rng(seed, 0);
      const { mean: m, variance } = moments(draws(200_000, () => gamma(rng, 2.5)));
      expect(m).to.be.closeTo(2.5, 0.05);
      expect(variance).to.be.closeTo(2.5, 0.05 * 2.5);
    }
  });

  it('draws unit-variance Student-t shocks with excess kurtosis 6 / (nu − 4) (nu = 10: 1 ± 0.35)', () => {
    for (const seed of SEEDS) {
      const rng = new Rng(seed, 1);
      const { mean: m, variance, excessKurtosis } = moments(draws(200_000, () => studentT(rng, 10)));
      expect(m).to.be.closeTo(0, 0.01);
      expect(variance).to.be.closeTo(1, 0.02);
      expect(excessKurtosis).to.be.closeTo(1, 0.35);
    }
  });

  it('keeps the long-run variance, with fat tails and clustered volatility (100,000 steps, 5 seeds)', () => {
    const params = { variance: 1e-4, alpha: 0.08, beta: 0.9, nu: 6 };
    for (const seed of SEEDS) {
      const garch = new Garch(params);
      const rng = new Rng(seed, 2);
      const returns = draws(100_000, () => garch.step(rng));
      const { variance, excessKurtosis } = moments(returns);
      expect(variance / params.variance, `seed ${seed}`).to.be.closeTo(1, 0.15);
      expect(excessKurtosis, `seed ${seed}`).to.be.greaterThan(2);
      const absolute = returns.map(Math.abs);
      const m = mean(absolute);
      let numerator = 0;
      let denominator = 0;
      for (let i = 0; i < absolute.length; i++) {
        denominator += (absolute[i] - m) ** 2;
        if (i > 0) numerator += (absolute[i] - m) * (absolute[i - 1] - m);
      }
      expect(numerator / denominator, `seed ${seed}: |r| autocorrelation at lag 1`).to.be.greaterThan(0.1);
    }
  });

  it('is a function of its stream: the same seed gives the same path, reset restarts the variance', () => {
    const params = { variance: 1, alpha: 0.05, beta: 0.9, nu: 5 };
    const a = new Garch(params);
    const b = new Garch(params);
    const ra = new Rng(7, 0);
    const rb = new Rng(7, 0);
    a.burnIn(ra, 10);
    b.burnIn(rb, 10);
    expect(draws(50, () => a.step(ra))).to.deep.equal(draws(50, () => b.step(rb)));
    a.reset();
    expect(a.variance).to.equal(1);
  });

  it('refuses parameters without a stationary variance, and knows when the kurtosis is finite', () => {
    expect(() => new Garch({ variance: 1, alpha: 0.5, beta: 0.5, nu: 5 })).to.throw(RangeError);
    expect(() => new Garch({ variance: 1, alpha: 0.1, beta: 0.8, nu: 2 })).to.throw(RangeError);
    expect(garchKurtosis(0, 0, Infinity)).to.equal(3);
    expect(garchKurtosis(0, 0, 10)).to.be.closeTo(4, 1e-12);
    expect(garchKurtosis(0.05, 0.9, 8)).to.be.greaterThan(4.5);
    expect(garchKurtosis(0.1, 0.89, 5)).to.equal(Infinity);
  });
});
