import { expect } from 'chai';
import fc from 'fast-check';
import { Rng } from '../../../../core/generation/random/prng.js';
import { drawIsin, isinCheckDigit, validateIsin } from '../../../../core/generation/realism/isin.js';

/**
 * An ISIN's national number carries its own check digit where the national numbering has one: a CUSIP
 * (United States, Canada) and a SEDOL (United Kingdom, Ireland, after "00"). Written here from the
 * CUSIP Global Services and LSE descriptions, independently of the engine.
 */
const seeds = fc.integer({ min: 0, max: 2 ** 32 - 1 });
const valueOf = (char: string) => (/\d/.test(char) ? Number(char) : char.charCodeAt(0) - 55);

function cusipValid(cusip: string): boolean {
  let sum = 0;
  for (let i = 0; i < 8; i++) {
    const value = valueOf(cusip[i]) * (i % 2 === 1 ? 2 : 1);
    sum += Math.floor(value / 10) + (value % 10);
  }
  return (10 - (sum % 10)) % 10 === Number(cusip[8]);
}

function sedolValid(sedol: string): boolean {
  if (/[AEIOU]/.test(sedol)) return false;
  const sum = [1, 3, 1, 7, 3, 9].reduce((total, weight, i) => total + valueOf(sedol[i]) * weight, 0);
  return (10 - (sum % 10)) % 10 === Number(sedol[6]);
}

const withIsinDigit = (payload: string) => payload + isinCheckDigit(payload);

describe('national numbers inside ISINs', () => {
  it('the independent checks accept real CUSIPs and SEDOLs', () => {
    expect(cusipValid('037833100')).to.equal(true); // Apple, US0378331005
    expect(cusipValid('594918104')).to.equal(true); // Microsoft, US5949181045
    expect(sedolValid('0263494')).to.equal(true); // BAE Systems, GB0002634946
    expect(sedolValid('B0YBKJ7')).to.equal(true);
  });

  it('every US and Canadian ISIN carries a valid CUSIP, every British and Irish one 00 and a valid SEDOL', () => {
    fc.assert(
      fc.property(seeds, fc.constantFrom('US', 'CA', 'GB', 'IE'), (seed, country) => {
        const isin = drawIsin(new Rng(seed), country);
        expect(validateIsin(isin), isin).to.equal(true);
        if (country === 'US' || country === 'CA') expect(cusipValid(isin.slice(2, 11)), isin).to.equal(true);
        else {
          expect(isin.slice(2, 4), isin).to.equal('00');
          expect(sedolValid(isin.slice(4, 11)), isin).to.equal(true);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('refuses an ISIN whose national check digit is wrong, even with a right ISIN check digit', () => {
    expect(validateIsin('US0378331005')).to.equal(true);
    expect(validateIsin(withIsinDigit('US037833100'))).to.equal(true);
    expect(validateIsin(withIsinDigit('US037833101'))).to.equal(false);
    expect(validateIsin('GB0002634946')).to.equal(true);
    expect(validateIsin(withIsinDigit('GB000263495'))).to.equal(false);
    expect(validateIsin(withIsinDigit('GB120263494'))).to.equal(false); // a SEDOL follows 00
    expect(validateIsin('DE0007164600')).to.equal(true); // SAP: a WKN carries no check digit
  });
});
