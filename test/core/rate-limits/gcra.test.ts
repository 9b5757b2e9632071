import { expect } from 'chai';
import fc from 'fast-check';
import { MemoryGcra, gcra, gcraPolicy, remainingOf, retryAfterUsOf } from '../../../core/rate-limits/gcra.js';

const SECOND = 1_000_000;

/** Whether each request, at its time in µs, is admitted by one bucket of `limit` per second. */
function admissions(limit: number, times: readonly number[]): boolean[] {
  const policy = gcraPolicy(limit);
  let tat = 0;
  return times.map((now) => {
    const result = gcra(tat, now, policy);
    tat = result.tat;
    return result.allowed;
  });
}

/** Arrival times in µs, in order: gaps from none (a burst) to a second. */
const arrivals = fc.array(fc.integer({ min: 0, max: SECOND }), { minLength: 1, maxLength: 300 }).map((gaps) => {
  let now = 5 * SECOND;
  return gaps.map((gap) => (now += gap));
});
const limits = fc.constantFrom(1, 3, 5, 20, 50, 100);

describe('GCRA: the rate limit without window edges', () => {
  it('admits a burst of the limit from a full bucket, then one request per interval', () => {
    const policy = gcraPolicy(5);
    expect(policy).to.deep.equal({ limit: 5, intervalUs: 200_000, windowUs: SECOND });
    const burst = admissions(
      5,
      [0, 0, 0, 0, 0, 0, 199_999, 200_000, 200_001, 400_000].map((t) => SECOND + t),
    );
    expect(burst).to.deep.equal([true, true, true, true, true, false, false, true, false, true]);
  });

  it('admits no more than the limit in a burst across the edge of a second (a fixed window: twice that)', () => {
    // The limit just before a second's edge, then the limit again just after it: 2 ms apart.
    const times = [...Array(5).fill(SECOND - 1000), ...Array(5).fill(SECOND + 1000)].map((t) => 10 * SECOND + t);
    expect(admissions(5, times).filter(Boolean)).to.have.length(5);
  });

  it('never admits more than limit + ⌊D × limit⌋ requests in any span of D seconds, wherever it falls', () => {
    fc.assert(
      fc.property(limits, arrivals, (limit, times) => {
        const decided = admissions(limit, times);
        const admitted = times.filter((_, index) => decided[index]);
        for (let first = 0; first < admitted.length; first += 1) {
          for (let last = first; last < admitted.length; last += 1) {
            const span = admitted[last]! - admitted[first]!;
            if (last - first + 1 > limit + Math.floor((span * limit) / SECOND)) return false;
          }
        }
        return true;
      }),
    );
  });

  it('refuses a request only when the limit was admitted within the second before it', () => {
    fc.assert(
      fc.property(limits, arrivals, (limit, times) => {
        const decided = admissions(limit, times);
        const window = gcraPolicy(limit).windowUs;
        const admittedBefore = (index: number) =>
          times.filter((t, i) => decided[i] && i < index && t >= times[index]! - window).length;
        return times.every((_, index) => decided[index] || admittedBefore(index) >= limit);
      }),
    );
  });

  it('says how many requests remain, when one more is admitted, and when the bucket is full again', () => {
    const policy = gcraPolicy(4);
    let tat = 0;
    const now = 3 * SECOND;
    const remaining: number[] = [];
    for (let request = 0; request < 4; request += 1) {
      const result = gcra(tat, now, policy);
      tat = result.tat;
      remaining.push(remainingOf(result, policy));
    }
    expect(remaining).to.deep.equal([3, 2, 1, 0]);
    const refused = gcra(tat, now + 100_000, policy);
    expect(refused.allowed).to.equal(false);
    expect(retryAfterUsOf(refused, policy)).to.equal(150_000);
    expect(refused.debtUs).to.equal(900_000);
    expect(remainingOf(refused, policy)).to.equal(0);
  });

  it('keeps the memory buckets of the accounts seen in the last minute only; a forgotten bucket is a full one', () => {
    const memory = new MemoryGcra();
    const policy = gcraPolicy(2);
    expect(memory.take('a', SECOND, policy).allowed).to.equal(true);
    expect(memory.take('a', SECOND, policy).allowed).to.equal(true);
    expect(memory.take('a', SECOND, policy).allowed).to.equal(false);
    expect(memory.take('b', 30 * SECOND, policy).allowed).to.equal(true);
    expect(memory.size).to.equal(2);
    // A minute on, the sweep forgets a, whose bucket refilled long ago, and keeps b, taken just now.
    expect(memory.take('b', 62 * SECOND, policy).allowed).to.equal(true);
    expect(memory.size).to.equal(1);
    expect(memory.take('a', 62 * SECOND, policy).allowed).to.equal(true);
  });
});
