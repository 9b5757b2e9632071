import { expect } from 'chai';
import fc from 'fast-check';
import { DDSketch } from '@datadog/sketches-js';
import { HyperLogLog } from '../../../core/reports/statistics/hyperloglog.js';
import {
  addBuckets,
  bucketKey,
  bucketsOf,
  newSketch,
  sketchOfEach,
} from '../../../core/reports/statistics/value-sketch.js';

/** A sketch of the values made as a chunk makes it: their buckets, added to a new sketch. */
function sketchOf(values: Float64Array, count: number, origin: number): DDSketch {
  const sketch = newSketch();
  addBuckets(sketch, bucketsOf(values, count, origin));
  return sketch;
}

/** Numbers as a chunk's columns hold them: amounts, times far from their origin, zeros, tiny and negative values. */
const someValue = fc.oneof(
  fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e13, max: 1e13 }).filter((value) => Math.abs(value) > 1e-6),
  fc.integer({ min: -1_000_000, max: 1_000_000 }).map((cents) => cents / 100),
  fc.constantFrom(0, -0, 1, -1),
);

/** Every rank's value and the stores' counts: what the report reads of a sketch. */
function distribution(sketch: DDSketch) {
  const { count } = sketch;
  const ranks = Array.from({ length: count }, (_, i) => sketch.getValueAtQuantile(count > 1 ? i / (count - 1) : 0));
  return { ranks, positive: sketch.store.count, negative: sketch.negativeStore.count, zeros: sketch.zeroCount, count };
}

describe('the statistics a chunk gathers in one pass at its end', () => {
  it('sketch the values as accepting them one by one does', () => {
    fc.assert(
      fc.property(
        fc.array(someValue, { maxLength: 300 }),
        fc.constantFrom(0, 1_700_000_000_000, -5),
        (list, origin) => {
          const values = Float64Array.from(list);
          const batched = sketchOf(values, values.length, origin);
          const each = sketchOfEach(values, values.length, origin);
          expect(distribution(batched)).to.deep.equal(distribution(each));
          expect(distribution(DDSketch.fromProto(batched.toProto()))).to.deep.equal(
            distribution(DDSketch.fromProto(each.toProto())),
          );
        },
      ),
      { numRuns: 300 },
    );
  });

  it('sketch values at the edges of the mapping (subnormal, next to zero, near the largest) as one by one', () => {
    const values = Float64Array.from([5e-324, -5e-324, 1e-300, -1e-300, 0, 1e300, -1e300, 2.5]);
    expect(distribution(sketchOf(values, values.length, 0))).to.deep.equal(
      distribution(sketchOfEach(values, values.length, 0)),
    );
  });

  it("find each value's bucket by table as the mapping does by its logarithm, at the buckets' edges too", () => {
    const { mapping } = newSketch();
    // A bucket's edge (gamma to a whole power, where value() answers its bucket's middle), and the doubles either
    // side of it: where a table's small error would change the key.
    const toEdge = (1 + mapping.gamma) / 2;
    const edge = fc
      .integer({ min: -30_000, max: 30_000 })
      .chain((key) =>
        fc.constantFrom(1 - 2 ** -52, 1, 1 + 2 ** -52).map((nudge) => mapping.value(key) * toEdge * nudge),
      );
    const positive = fc.double({ min: 1e-307, max: 1e307, noNaN: true }).filter((value) => value > 0);
    fc.assert(
      fc.property(fc.oneof(positive, edge, fc.constantFrom(1.2e-308, 5e-324, 2 ** -1022, 1, 2, 1.7e308)), (value) => {
        expect(bucketKey(value), String(value)).to.equal(mapping.key(value));
      }),
      { numRuns: 20_000 },
    );
  });

  it('merge chunk after chunk into the sketch of all their values', () => {
    fc.assert(
      fc.property(fc.array(fc.array(someValue, { maxLength: 100 }), { maxLength: 6 }), (chunks) => {
        const merged = newSketch();
        for (const chunk of chunks) addBuckets(merged, bucketsOf(Float64Array.from(chunk), chunk.length, 7));
        const all = Float64Array.from(chunks.flat());
        expect(distribution(merged)).to.deep.equal(distribution(sketchOfEach(all, all.length, 7)));
      }),
      { numRuns: 200 },
    );
  });

  it('sketch only the first `count` values of a larger buffer', () => {
    const values = Float64Array.from([3, 4, 5, 1e9, -1e9]);
    expect(distribution(sketchOf(values, 3, 0))).to.deep.equal(distribution(sketchOfEach(values.subarray(0, 3), 3, 0)));
  });

  it('count distinct numbers into the registers addNumber fills, one by one', () => {
    fc.assert(
      fc.property(fc.array(someValue, { maxLength: 2000 }), fc.nat({ max: 2000 }), (list, cut) => {
        const values = Float64Array.from(list);
        const count = Math.min(cut, values.length);
        const batched = new HyperLogLog();
        batched.addNumbers(values, count);
        const each = new HyperLogLog();
        for (let i = 0; i < count; i++) each.addNumber(values[i]);
        expect(batched.registers).to.deep.equal(each.registers);
      }),
      { numRuns: 200 },
    );
  });
});
