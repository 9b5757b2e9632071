import { expect } from 'chai';
import {
  calibrateIntercept,
  interceptCalibrator,
  logistic,
  logit,
  meanProbability,
  Rng,
} from '../../../core/packs/sdk.js';

/** Linear predictors of a score-like covariate: a normal sample times a slope, from a fixed stream. */
function predictors(seed: number, size: number, slope: number): Float64Array {
  const rng = new Rng(seed, 0);
  return Float64Array.from({ length: size }, () => slope * rng.normal());
}

describe('the SDK logistic link', () => {
  it('maps log-odds to probabilities and back, without overflow at the extremes', () => {
    expect(logistic(0)).to.equal(0.5);
    expect(logistic(Math.log(3))).to.be.closeTo(0.75, 1e-15);
    expect(logistic(-Math.log(3))).to.be.closeTo(0.25, 1e-15);
    expect(logistic(1000)).to.equal(1);
    expect(logistic(-1000)).to.equal(0);
    expect(logistic(Infinity)).to.equal(1);
    expect(logistic(-Infinity)).to.equal(0);
    for (const p of [1e-9, 0.001, 0.03, 0.5, 0.97, 0.999999]) expect(logistic(logit(p))).to.be.closeTo(p, 1e-12);
    expect(logit(0)).to.equal(-Infinity);
    expect(logit(1)).to.equal(Infinity);
  });

  it('calibrates the intercept so the mean probability is the target rate, over several samples and slopes', () => {
    for (const seed of [1, 2, 3, 4, 5])
      for (const slope of [0, 0.5, 1.3, 4])
        for (const target of [0.001, 0.03, 0.1, 0.5, 0.9]) {
          const xs = predictors(seed, 2000, slope);
          const intercept = calibrateIntercept(xs, target);
          // Bisection to 1e-10 on the intercept: the mean is within far less than 1e-8 of the target.
          expect(meanProbability(xs, intercept), `seed ${seed}, slope ${slope}, target ${target}`).to.be.closeTo(
            target,
            1e-8,
          );
        }
  });

  it('with no spread in the predictors, the intercept is the logit of the target less the common predictor', () => {
    expect(calibrateIntercept([2, 2, 2], 0.2)).to.be.closeTo(logit(0.2) - 2, 1e-9);
  });

  it('ranks by the predictor: a higher predictor has a higher probability, and the worst fifth many times the best', () => {
    const xs = predictors(7, 5000, 1.3);
    const intercept = calibrateIntercept(xs, 0.03);
    const sorted = [...xs].sort((a, b) => a - b);
    const fifth = sorted.length / 5;
    const mean = (part: number[]) => meanProbability(part, intercept);
    const best = mean(sorted.slice(0, fifth));
    const worst = mean(sorted.slice(-fifth));
    expect(worst / best).to.be.greaterThan(5);
  });

  it('gives -Infinity for a target of 0 and +Infinity for 1, and refuses a target outside [0, 1] or no sample', () => {
    expect(calibrateIntercept([0, 1], 0)).to.equal(-Infinity);
    expect(calibrateIntercept([0, 1], 1)).to.equal(Infinity);
    expect(logistic(calibrateIntercept([0, 1], 1) + 1)).to.equal(1);
    expect(() => calibrateIntercept([0], 1.5)).to.throw(RangeError, /1.5/);
    expect(() => calibrateIntercept([0], Number.NaN)).to.throw(RangeError);
    expect(() => calibrateIntercept([], 0.1)).to.throw(RangeError, /no linear predictors/);
  });

  it('is deterministic, and a calibrator remembers each target: the same intercept as calibrating afresh', () => {
    const xs = predictors(3, 1000, 1);
    const calibrator = interceptCalibrator(xs);
    expect(calibrator(0.05)).to.equal(calibrateIntercept(xs, 0.05));
    expect(calibrator(0.05)).to.equal(calibrator(0.05));
    expect(calibrator(0.2)).to.be.greaterThan(calibrator(0.05));
    expect(calibrateIntercept(predictors(3, 1000, 1), 0.05)).to.equal(calibrateIntercept(xs, 0.05));
  });

  it('answers as calibrating afresh would for more targets than it keeps', () => {
    const xs = predictors(3, 200, 1);
    const calibrator = interceptCalibrator(xs, 4);
    for (const round of [1, 2])
      for (let i = 1; i <= 10; i++)
        expect(calibrator(i / 100), `round ${round}, target ${i / 100}`).to.equal(calibrateIntercept(xs, i / 100));
  });
});
