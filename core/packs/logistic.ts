/**
 * The logistic link of a scorecard or a generalised linear model: a probability from log-odds, and the
 * intercept that makes a population's mean probability a target rate (a portfolio's default rate, a
 * campaign's response rate), so that a pack's option sets the rate while a covariate ranks who gets it.
 */

/** The probability whose log-odds are `x`: 1 / (1 + e^-x); 0 at -Infinity, 1 at +Infinity. */
export function logistic(x: number): number {
  // Written on the side whose exponential cannot overflow, so a large |x| gives 0 or 1, never NaN.
  if (x >= 0) return 1 / (1 + Math.exp(-x));
  const e = Math.exp(x);
  return e / (1 + e);
}

/** The log-odds of a probability `p`: ln(p / (1 - p)); -Infinity at 0, +Infinity at 1. */
export function logit(p: number): number {
  return Math.log(p / (1 - p));
}

/** Bisection stops when the bracket is this narrow: far finer than any rate a sample can show. */
const TOLERANCE = 1e-10;
const MAX_STEPS = 200;

/**
 * The intercept `a` with mean(logistic(a + x)) = `target` over the linear predictors `xs` (a fixed sample or
 * grid of a covariate times its slope), by bisection: the mean rises with `a`, so the root is unique. A target
 * of 0 gives -Infinity and of 1 +Infinity (every probability 0, or 1). Deterministic: the same `xs` and target
 * give the same intercept, so each worker that computes it finds the same one.
 */
export function calibrateIntercept(xs: ArrayLike<number>, target: number): number {
  if (!(target >= 0 && target <= 1)) throw new RangeError(`target rate ${target} is not within [0, 1]`);
  if (xs.length === 0) throw new RangeError('no linear predictors to calibrate on');
  if (target === 0) return -Infinity;
  if (target === 1) return Infinity;
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < xs.length; i++) {
    min = Math.min(min, xs[i]);
    max = Math.max(max, xs[i]);
  }
  // Every probability is at most logistic(a + max) and at least logistic(a + min): this bracket holds the root.
  let low = logit(target) - max;
  let high = logit(target) - min;
  for (let step = 0; step < MAX_STEPS && high - low > TOLERANCE; step++) {
    const middle = (low + high) / 2;
    if (meanProbability(xs, middle) < target) low = middle;
    else high = middle;
  }
  return (low + high) / 2;
}

/** The mean of logistic(intercept + x) over `xs`. */
export function meanProbability(xs: ArrayLike<number>, intercept: number): number {
  let sum = 0;
  for (let i = 0; i < xs.length; i++) sum += logistic(intercept + xs[i]);
  return sum / xs.length;
}

/**
 * `calibrateIntercept` over fixed `xs`, remembered per target: a generator asks for the intercept of its table's
 * option on every parent, and this computes it once per option value (per worker). At most `limit` targets are
 * kept, since each request may set another: past it, the memory starts afresh.
 */
export function interceptCalibrator(xs: ArrayLike<number>, limit = 256): (target: number) => number {
  const sample = Float64Array.from(xs);
  const intercepts = new Map<number, number>();
  return (target) => {
    let intercept = intercepts.get(target);
    if (intercept === undefined) {
      intercept = calibrateIntercept(sample, target);
      if (intercepts.size >= limit) intercepts.clear();
      intercepts.set(target, intercept);
    }
    return intercept;
  };
}
