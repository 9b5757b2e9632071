import { expect } from 'chai';
import fc from 'fast-check';
import { Rng } from '../../../../core/generation/random/prng.js';

describe('the generator of random strings', () => {
  it('draws the same characters, one draw each, whatever way it joins them', () => {
    // The text the engine has always drawn: character i of `alphabet` at floor(next() * length), in order.
    const reference = (rng: Rng, alphabet: string, length: number) =>
      String.fromCharCode(
        ...Array.from({ length }, () => alphabet.charCodeAt(Math.floor(rng.next() * alphabet.length))),
      );
    fc.assert(
      fc.property(
        fc.integer(),
        fc.integer({ min: 0, max: 40 }),
        fc.string({ minLength: 1, maxLength: 80, unit: 'binary' }),
        (seed, length, alphabet) => {
          const drawn = new Rng(seed, 1);
          const expected = new Rng(seed, 1);
          // Twice: the second call finds the alphabet's table already made.
          for (let i = 0; i < 2; i++)
            expect(drawn.chars(alphabet, length)).to.equal(reference(expected, alphabet, length));
          expect(drawn.u32()).to.equal(expected.u32());
        },
      ),
      { numRuns: 3000 },
    );
  });
});
