import { DDSketch } from '@datadog/sketches-js';
import { QUANTILE_RELATIVE_ACCURACY } from './chunk-statistics.js';

/**
 * The DDSketch of a chunk's values' distances from `origin`, made in one pass over them: each value's bucket is
 * the sketch's own mapping of it, counted in a dense array and added to the sketch's stores once per bucket.
 * The same sketch as `sketchOfEach` (accepting each value), without a call and a range check per value.
 */
export function sketchOf(values: Float64Array, count: number, origin: number): DDSketch {
  const sketch = new DDSketch({ relativeAccuracy: QUANTILE_RELATIVE_ACCURACY });
  const { mapping } = sketch;
  const least = mapping.minPossible;
  const keys = new Int32Array(count);
  const sides = new Int8Array(count);
  const positive = new KeyRange();
  const negative = new KeyRange();
  let zeros = 0;
  for (let i = 0; i < count; i++) {
    const value = values[i] - origin;
    if (value > least) {
      keys[i] = positive.include(mapping.key(value));
      sides[i] = 1;
    } else if (value < -least) {
      keys[i] = negative.include(mapping.key(-value));
      sides[i] = -1;
    } else zeros++;
  }
  const positiveCounts = positive.counts();
  const negativeCounts = negative.counts();
  for (let i = 0; i < count; i++) {
    if (sides[i] > 0) positiveCounts[keys[i] - positive.lowest]++;
    else if (sides[i] < 0) negativeCounts[keys[i] - negative.lowest]++;
  }
  positive.addTo(sketch.store, positiveCounts);
  negative.addTo(sketch.negativeStore, negativeCounts);
  sketch.zeroCount += zeros;
  sketch.count += count;
  return sketch;
}

/** The lowest and highest buckets of one sign's values, and their counts in a dense array over that range. */
class KeyRange {
  lowest = Infinity;
  highest = -Infinity;

  include(key: number): number {
    if (key < this.lowest) this.lowest = key;
    if (key > this.highest) this.highest = key;
    return key;
  }

  counts(): Float64Array {
    return new Float64Array(this.highest >= this.lowest ? this.highest - this.lowest + 1 : 0);
  }

  /** Adds the counts, the highest bucket first: the store then takes the whole range at once, not a step at a time. */
  addTo(store: DDSketch['store'], counts: Float64Array): void {
    const last = counts.length - 1;
    if (last < 0) return;
    store.add(this.highest, counts[last]);
    for (let at = 0; at < last; at++) if (counts[at] > 0) store.add(at + this.lowest, counts[at]);
  }
}

/** The plain version of sketchOf: every value accepted by the sketch, one by one. */
export function sketchOfEach(values: Float64Array, count: number, origin: number): DDSketch {
  const sketch = new DDSketch({ relativeAccuracy: QUANTILE_RELATIVE_ACCURACY });
  for (let i = 0; i < count; i++) sketch.accept(values[i] - origin);
  return sketch;
}
