import { expect } from 'chai';
import { peerCount, PeerPermutation, peerSeed } from '../../../core/packs/sdk.js';

const SEEDS = [1, 7, 42, 1234, 0xdeadbeef];

describe('peers: PeerPermutation', () => {
  it('pairs every parent with exactly one receiver and one sender on each slot, and from inverts to', () => {
    for (const size of [1, 2, 3, 10, 97, 360, 1000])
      for (const seed of SEEDS)
        for (let slot = 0; slot < 4; slot++) {
          const permutation = new PeerPermutation(size, seed, slot);
          const images = new Set<number>();
          for (let i = 0; i < size; i++) {
            const to = permutation.to(i);
            expect(to).to.be.within(0, size - 1);
            expect(permutation.from(to)).to.equal(i);
            expect(permutation.to(permutation.from(i))).to.equal(i);
            images.add(to);
          }
          expect(images.size, `size ${size}, seed ${seed}, slot ${slot}`).to.equal(size);
        }
  });

  it('stays exact for sizes near 2^31, where a·i passes 2^53', () => {
    const size = 2 ** 31 - 1;
    for (const seed of SEEDS) {
      const permutation = new PeerPermutation(size, seed, 3);
      for (const i of [0, 1, 65_535, 65_536, 123_456_789, size - 2, size - 1]) {
        const to = permutation.to(i);
        expect(Number.isSafeInteger(to) && to >= 0 && to < size).to.equal(true);
        expect(permutation.from(to)).to.equal(i);
      }
    }
  });

  it('draws different pairings for different slots and seeds, and the same for the same ones', () => {
    const images = (seed: number, slot: number) =>
      Array.from({ length: 50 }, (_, i) => new PeerPermutation(50, seed, slot).to(i)).join(',');
    expect(images(1, 0)).to.equal(images(1, 0));
    expect(images(1, 0)).to.not.equal(images(1, 1));
    expect(images(1, 0)).to.not.equal(images(2, 0));
  });

  it('refuses a size that is no positive integer below 2^31', () => {
    for (const size of [0, -1, 1.5, 2 ** 31]) expect(() => new PeerPermutation(size, 1, 0)).to.throw(RangeError);
  });
});

describe('peers: peerSeed', () => {
  it('is the same for the same (seed, slot, sender) and differs when any of them does', () => {
    expect(peerSeed(1, 2, 3)).to.equal(peerSeed(1, 2, 3));
    const seeds = new Set([peerSeed(1, 2, 3), peerSeed(2, 2, 3), peerSeed(1, 3, 3), peerSeed(1, 2, 4)]);
    expect(seeds.size).to.equal(4);
  });
});

describe('peers: peerCount', () => {
  it('spreads exactly the total over the parents, each count a non-negative integer', () => {
    for (const seed of SEEDS)
      for (const [total, parents] of [
        [0, 5],
        [1, 1],
        [3, 10],
        [800, 26],
        [50_000, 1600],
        [12_345, 999],
      ]) {
        let sum = 0;
        for (let i = 0; i < parents; i++) {
          const count = peerCount(total, parents, i, seed);
          expect(Number.isSafeInteger(count) && count >= 0).to.equal(true);
          sum += count;
        }
        expect(sum, `${total} rows over ${parents} parents, seed ${seed}`).to.equal(total);
      }
  });

  it('gives 0 outside the parents, and is the same for the same arguments', () => {
    expect(peerCount(100, 10, -1, 1)).to.equal(0);
    expect(peerCount(100, 10, 10, 1)).to.equal(0);
    expect(peerCount(1000, 40, 17, 9)).to.equal(peerCount(1000, 40, 17, 9));
  });

  it('makes some parents busy and some quiet: coefficient of variation 0.4 to 1.5 at spread 0.3, ~0 at spread 0', () => {
    for (const seed of SEEDS) {
      const parents = 1024;
      const counts = (spread: number) =>
        Array.from({ length: parents }, (_, i) => peerCount(100 * parents, parents, i, seed, spread));
      const cv = (values: number[]) => {
        const mean = values.reduce((a, b) => a + b, 0) / values.length;
        return Math.sqrt(values.reduce((a, b) => a + (b - mean) ** 2, 0) / values.length) / mean;
      };
      expect(cv(counts(0.3)), `seed ${seed}`).to.be.within(0.4, 1.5);
      expect(cv(counts(0)), `seed ${seed}`).to.be.below(0.02);
    }
  });
});
