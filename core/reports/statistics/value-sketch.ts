import { DDSketch } from '@datadog/sketches-js';
import { QUANTILE_RELATIVE_ACCURACY, type BucketCounts, type SketchBuckets } from './chunk-statistics.js';

/** A DDSketch of the report's accuracy: every chunk's buckets are added to one. */
export function newSketch(): DDSketch {
  return new DDSketch({ relativeAccuracy: QUANTILE_RELATIVE_ACCURACY });
}

/** The mapping every sketch of the report shares: a value's bucket, as the sketch itself would find it. */
const { mapping } = newSketch();

/** log2 of 1 + i / 1024: between two steps, a line is within 2e-7 of the logarithm. */
const LOG2_STEPS = 1024;
const LOG2_TABLE = Float64Array.from({ length: LOG2_STEPS + 1 }, (_, i) => Math.log2(1 + i / LOG2_STEPS));
/** Buckets per doubling, and the key of 1 (the mapping's offset). */
const KEYS_PER_DOUBLING = 1 / Math.log2(mapping.gamma);
const KEY_OF_ONE = mapping.key(1);
/** Closer than this to a bucket's edge (in buckets), the mapping itself decides; else the table is far within it. */
const EDGE = 1e-4;
const float = new Float64Array(1);
const words = new Uint32Array(float.buffer);

/**
 * mapping.key(value) for a positive value, without its Math.log2 (most of a number column's cost at a chunk's
 * end): the value's binary exponent, and the logarithm of its significand read from a table. Where that lands
 * near a bucket's edge, or for a subnormal value, the mapping's own answer is taken, so the key is always the
 * mapping's (the plain version, which tests compare it with).
 */
export function bucketKey(value: number): number {
  float[0] = value;
  const high = words[1];
  const exponent = (high >>> 20) - 1023;
  if (exponent === -1023) return mapping.key(value);
  const step = (high >>> 10) & (LOG2_STEPS - 1);
  // The significand's 42 bits below the table's ten, as a share of a step.
  const within = ((high & 0x3ff) * 4294967296 + words[0]) / 4398046511104;
  const low = LOG2_TABLE[step];
  const scaled = (exponent + low + (LOG2_TABLE[step + 1] - low) * within) * KEYS_PER_DOUBLING;
  const key = Math.ceil(scaled);
  if (key - scaled < EDGE || scaled - (key - 1) < EDGE) return mapping.key(value);
  return key + KEY_OF_ONE;
}

/** Each value's bucket and sign, reused from chunk to chunk (a worker sketches one column at a time). */
let scratch = { keys: new Int32Array(0), sides: new Int8Array(0) };
/** Longer than this, a chunk's scratch is its own: kept, it would hold its memory for good. */
const MAX_KEPT_SCRATCH = 65_536;

function scratchFor(count: number): typeof scratch {
  if (scratch.keys.length >= count) return scratch;
  const made = { keys: new Int32Array(count), sides: new Int8Array(count) };
  if (count <= MAX_KEPT_SCRATCH) scratch = made;
  return made;
}

/**
 * The buckets of a chunk's values' distances from `origin`, in one pass over them: each value's bucket is the
 * sketch's own mapping of it, counted in a dense array. Added to a sketch (addBuckets), the same sketch as
 * accepting each value (sketchOfEach), without a call and a range check per value.
 */
export function bucketsOf(values: Float64Array, count: number, origin: number): SketchBuckets {
  const least = mapping.minPossible;
  const { keys, sides } = scratchFor(count);
  const positive = new KeyRange();
  const negative = new KeyRange();
  let zeros = 0;
  for (let i = 0; i < count; i++) {
    const value = values[i] - origin;
    if (value > least) {
      keys[i] = positive.include(bucketKey(value));
      sides[i] = 1;
    } else if (value < -least) {
      keys[i] = negative.include(bucketKey(-value));
      sides[i] = -1;
    } else {
      sides[i] = 0;
      zeros++;
    }
  }
  const positiveCounts = positive.counts();
  const negativeCounts = negative.counts();
  for (let i = 0; i < count; i++) {
    if (sides[i] > 0) positiveCounts.counts[keys[i] - positiveCounts.lowest]++;
    else if (sides[i] < 0) negativeCounts.counts[keys[i] - negativeCounts.lowest]++;
  }
  return { positive: positiveCounts, negative: negativeCounts, zeros };
}

/** Adds a chunk's buckets to `sketch`, its count included, as accepting the chunk's values one by one would. */
export function addBuckets(sketch: DDSketch, buckets: SketchBuckets): void {
  const added = addTo(sketch.store, buckets.positive) + addTo(sketch.negativeStore, buckets.negative);
  sketch.zeroCount += buckets.zeros;
  sketch.count += added + buckets.zeros;
}

/** The plain version of bucketsOf and addBuckets: every value accepted by a new sketch, one by one. */
export function sketchOfEach(values: Float64Array, count: number, origin: number): DDSketch {
  const sketch = newSketch();
  for (let i = 0; i < count; i++) sketch.accept(values[i] - origin);
  return sketch;
}

/**
 * Adds the counts to a store, the highest bucket first: the store then takes their whole range at once, not a
 * step at a time. Answers how many values were added.
 */
function addTo(store: DDSketch['store'], { lowest, counts }: BucketCounts): number {
  const last = counts.length - 1;
  if (last < 0) return 0;
  let added = counts[last];
  store.add(lowest + last, counts[last]);
  for (let at = 0; at < last; at++) {
    if (counts[at] === 0) continue;
    store.add(lowest + at, counts[at]);
    added += counts[at];
  }
  return added;
}

/** The lowest and highest buckets of one sign's values. */
class KeyRange {
  private lowest = Infinity;
  private highest = -Infinity;

  include(key: number): number {
    if (key < this.lowest) this.lowest = key;
    if (key > this.highest) this.highest = key;
    return key;
  }

  /** Zeroed counts over the range seen (none when no value was). */
  counts(): BucketCounts {
    if (this.highest < this.lowest) return { lowest: 0, counts: new Float64Array(0) };
    return { lowest: this.lowest, counts: new Float64Array(this.highest - this.lowest + 1) };
  }
}
