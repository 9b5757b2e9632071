import type { Rng } from '../generation/random/prng.js';

/**
 * When people act over a week: an hour-of-day x weekday intensity (payments peak at lunch and in the evening,
 * fall to almost nothing at night, and rise on Fridays and Saturdays). Times are local wall-clock instants in
 * milliseconds since the epoch (a UTC instant plus the place's offset); weeks begin on Monday 00:00.
 *
 * Draws map a uniform number through the profile's cumulative intensity ("warped" time, in which activity is
 * even), so a draw costs two lookups and a binary search over the week's 168 hours, and allocates nothing.
 */

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const WEEK = 7 * DAY;
const HOURS_PER_WEEK = 168;
/** 1970-01-01 was a Thursday: the epoch plus this lies on a Monday 00:00. */
const TO_MONDAY = 3 * DAY;
/** Slices of the warped week indexed to the hour they begin in, so that `unwarp` finds its hour in a step or two. */
const INDEX_SIZE = 2048;

export class ActivityProfile {
  /** Intensity of each hour of the week, Monday 00:00 first, scaled so that its mean is 1. */
  private readonly rates = new Float64Array(HOURS_PER_WEEK);
  /** Warped time at the start of each hour of the week (the last entry is a whole week: WEEK). */
  private readonly cumulative = new Float64Array(HOURS_PER_WEEK + 1);
  /** The hour of the week each slice of the warped week begins in. */
  private readonly hourIndex = new Uint8Array(INDEX_SIZE);
  /** The last window end warped: a walk through a period asks for the same end row after row. */
  private lastTo = NaN;
  private lastToWarped = NaN;

  /**
   * A profile from 24 hourly weights (00:00 first) and 7 weekday weights (Monday first): the intensity of an hour
   * is its hour's weight times its weekday's. Weights are relative, non-negative, and not all zero.
   */
  constructor(hourWeights: readonly number[], weekdayWeights: readonly number[]) {
    if (hourWeights.length !== 24 || weekdayWeights.length !== 7)
      throw new RangeError('ActivityProfile: 24 hourly weights and 7 weekday weights');
    if (![...hourWeights, ...weekdayWeights].every((weight) => Number.isFinite(weight) && weight >= 0))
      throw new RangeError('ActivityProfile: weights are finite and non-negative');
    let total = 0;
    for (let hour = 0; hour < HOURS_PER_WEEK; hour++)
      total += this.rates[hour] = hourWeights[hour % 24] * weekdayWeights[Math.floor(hour / 24)];
    if (!(total > 0)) throw new RangeError('ActivityProfile: some weight must be positive');
    for (let hour = 0; hour < HOURS_PER_WEEK; hour++) {
      this.rates[hour] *= HOURS_PER_WEEK / total;
      this.cumulative[hour + 1] = this.cumulative[hour] + this.rates[hour] * HOUR;
    }
    // The sum of rounded terms may miss a week by a few units in the last place; the inverse relies on it exactly.
    this.cumulative[HOURS_PER_WEEK] = WEEK;
    let hour = 0;
    for (let slice = 0; slice < INDEX_SIZE; slice++) {
      const at = (slice * WEEK) / INDEX_SIZE;
      while (hour < HOURS_PER_WEEK - 1 && this.cumulative[hour + 1] <= at) hour++;
      this.hourIndex[slice] = hour;
    }
  }

  /** The weekday of a local instant: 0 for Monday to 6 for Sunday. */
  static weekdayOf(local: number): number {
    return Math.floor(((((local + TO_MONDAY) % WEEK) + WEEK) % WEEK) / DAY);
  }

  /** The intensity at a local instant, relative to the week's mean (1). */
  rateAt(local: number): number {
    const shifted = local + TO_MONDAY;
    return this.rates[Math.floor((shifted - Math.floor(shifted / WEEK) * WEEK) / HOUR)];
  }

  /**
   * One local instant in [from, to), as likely at each moment as the profile's intensity there: a purchase
   * somewhere in a day (`from` a local midnight, `to` the next) or in a week. `from` when the window holds no
   * activity at all.
   */
  between(rng: Rng, from: number, to: number): number {
    return this.firstOf(rng, from, to, 1);
  }

  /**
   * The earliest of `count` instants drawn as `between` draws them: called again from the instant it returns with
   * one fewer, it walks through `count` arrivals of the window in time order (a card's purchases over a period,
   * ending within it), without drawing and sorting them all.
   */
  firstOf(rng: Rng, from: number, to: number, count: number): number {
    const start = this.warp(from);
    if (to !== this.lastTo) {
      this.lastTo = to;
      this.lastToWarped = this.warp(to);
    }
    const end = this.lastToWarped;
    // The least of n uniforms on [0, 1) is 1 - U^(1/n); 1 - next() keeps U in (0, 1].
    const least = 1 - Math.pow(1 - rng.next(), 1 / Math.max(1, count));
    const at = this.unwarp(start + (end - start) * least);
    return at < from || !(end > start) ? from : at < to ? at : Math.max(from, to - 1);
  }

  /** A local instant within the day that begins at `midnight` (local), at an hour weighted by that day's profile. */
  timeInDay(rng: Rng, midnight: number): number {
    return this.between(rng, midnight, midnight + DAY);
  }

  /** Warped time: the profile's integral from the epoch's Monday, so that activity is even in it. */
  warp(local: number): number {
    const shifted = local + TO_MONDAY;
    const week = Math.floor(shifted / WEEK);
    const within = shifted - week * WEEK;
    const hour = Math.min(HOURS_PER_WEEK - 1, Math.floor(within / HOUR));
    return week * WEEK + this.cumulative[hour] + (within - hour * HOUR) * this.rates[hour];
  }

  /** The local instant of a warped time (the inverse of `warp`; the start of a stretch without activity). */
  unwarp(warped: number): number {
    const week = Math.floor(warped / WEEK);
    const within = warped - week * WEEK;
    const cumulative = this.cumulative;
    // The last hour whose start is at or before `within`, skipping hours without activity (zero width).
    let low = this.hourIndex[Math.min(INDEX_SIZE - 1, Math.floor((within / WEEK) * INDEX_SIZE))];
    while (low < HOURS_PER_WEEK - 1 && cumulative[low + 1] <= within) low++;
    while (low > 0 && this.rates[low] === 0) low--;
    const rate = this.rates[low];
    const into = rate > 0 ? Math.min(HOUR, (within - cumulative[low]) / rate) : 0;
    return week * WEEK + low * HOUR + into - TO_MONDAY;
  }
}
