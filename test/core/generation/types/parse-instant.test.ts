import { expect } from 'chai';
import fc from 'fast-check';
import { parseInstant } from '../../../../core/generation/types/parse-instant.js';

/** Every instant from year 0000 to 9999, as the engine writes it. */
const anyInstant = fc
  .integer({ min: Date.UTC(0, 0, 1) - 1900 * 365.2425 * 86_400_000, max: Date.UTC(9999, 11, 31, 23, 59, 59, 999) })
  .map((ms) => new Date(ms).toISOString())
  .filter((text) => text.length === 24);

/** A written instant or day with one character changed to a digit, a separator or a letter. */
const mutated = fc
  .tuple(
    fc.oneof(
      anyInstant,
      anyInstant.map((text) => text.slice(0, 10)),
    ),
    fc.nat(),
    fc.constantFrom(...'0123456789-:.TZ x/+9'),
  )
  .map(([text, at, char]) => text.slice(0, at % text.length) + char + text.slice((at % text.length) + 1));

describe('parseInstant', () => {
  it('answers what Date.parse answers for written instants and days', () => {
    fc.assert(
      fc.property(anyInstant, (text) => {
        expect(parseInstant(text)).to.equal(Date.parse(text));
        expect(parseInstant(text.slice(0, 10))).to.equal(Date.parse(text.slice(0, 10)));
      }),
      { numRuns: 2000 },
    );
  });

  it('answers what Date.parse answers, NaN included, for any of them with one character changed', () => {
    fc.assert(
      fc.property(mutated, (text) => {
        expect(Object.is(parseInstant(text), Date.parse(text)), text).to.equal(true);
      }),
      { numRuns: 5000 },
    );
  });

  it('answers what Date.parse answers at the edges: the 31st of a short month, 24:00, years before 0100', () => {
    for (const text of [
      '2025-02-30T00:00:00.000Z',
      '2025-04-31',
      '2025-01-01T24:00:00.000Z',
      '2025-01-01T24:00:00.001Z',
      '2025-01-01T23:60:00.000Z',
      '2025-13-01',
      '2025-00-10',
      '0099-01-01',
      '0000-01-01T00:00:00.000Z',
      '2025-01-01T00:00:00.000+',
      ' 2025-01-01',
    ])
      expect(Object.is(parseInstant(text), Date.parse(text)), text).to.equal(true);
  });
});
