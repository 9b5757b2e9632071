import { expect } from 'chai';
import fc from 'fast-check';
import { isValidBIC, isValidIBAN } from 'ibantools';
import { Rng } from '../../../../core/generation/random/prng.js';
import { drawIban, IBAN_COUNTRIES, validateIban } from '../../../../core/generation/realism/iban.js';
import { drawIsin, validateIsin } from '../../../../core/generation/realism/isin.js';
import { drawPan, panNetwork, validatePan } from '../../../../core/generation/realism/pan.js';
import { bicCountry } from '../../../../core/generation/realism/bic.js';
import { cardNetworks } from '../../../../core/generation/reference-data/card-networks.js';
import { helpers } from '../../../../core/generation/helpers.js';
import { bic } from '../../../../core/generation/types/financial.js';

const seeds = fc.integer({ min: 0, max: 2 ** 32 - 1 });

/** ISIN check digit from ISO 6166, written independently of the engine: letters to two digits, Luhn from the right. */
function isinValidIndependently(isin: string): boolean {
  const digits = [...isin.slice(0, 11)]
    .map((char) => (/\d/.test(char) ? char : String(char.charCodeAt(0) - 55)))
    .join('');
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 0) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    sum += digit;
  }
  return (10 - (sum % 10)) % 10 === Number(isin[11]);
}

function luhn(number: string): boolean {
  let sum = 0;
  for (let i = 0; i < number.length; i++) {
    let digit = Number(number[number.length - 1 - i]);
    if (i % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    sum += digit;
  }
  return sum % 10 === 0;
}

describe('realistic identifiers, over seeds', () => {
  it('every IBAN passes a strict third-party validator (ISO 13616 and national check digits) and our own', () => {
    fc.assert(
      fc.property(seeds, fc.constantFrom(...IBAN_COUNTRIES), (seed, country) => {
        const { iban } = drawIban(new Rng(seed), country);
        expect(isValidIBAN(iban), iban).to.equal(true);
        expect(validateIban(iban), iban).to.equal(true);
        expect(iban.slice(0, 2)).to.equal(country);
      }),
      { numRuns: 2000 },
    );
  });

  it('an altered IBAN digit fails our validator', () => {
    fc.assert(
      fc.property(seeds, fc.constantFrom(...IBAN_COUNTRIES), fc.nat(), (seed, country, at) => {
        const { iban } = drawIban(new Rng(seed), country);
        const position = 4 + (at % (iban.length - 4));
        const original = iban[position];
        if (!/\d/.test(original)) return;
        const altered = iban.slice(0, position) + String((Number(original) + 1) % 10) + iban.slice(position + 1);
        expect(validateIban(altered), altered).to.equal(false);
      }),
    );
  });

  it("every BIC is valid and of the IBAN's country and bank", () => {
    fc.assert(
      fc.property(seeds, fc.constantFrom(...IBAN_COUNTRIES), (seed, country) => {
        const { iban, bic } = helpers.iban(new Rng(seed), country);
        expect(isValidBIC(bic), bic).to.equal(true);
        expect(bicCountry(bic)).to.equal(iban.slice(0, 2));
      }),
      { numRuns: 1000 },
    );
  });

  it("a bic column with iban_column: the IBAN's bank's BIC, a bank of its country for a bank code unknown, null without an IBAN", () => {
    const sample = bic.compile({ iban_column: 'iban' }, { tableSeed: 1, pools: undefined as never });
    fc.assert(
      fc.property(seeds, fc.constantFrom(...IBAN_COUNTRIES), (seed, country) => {
        const drawn = helpers.iban(new Rng(seed), country);
        expect(sample(new Rng(seed), { iban: drawn.iban }, 0)).to.equal(drawn.bic);
        // The same country, a bank code no listed bank has: the pair still names one country.
        const foreign = `${drawn.iban.slice(0, 4)}${'9'.repeat(drawn.iban.length - 4)}`;
        expect(bicCountry(String(sample(new Rng(seed), { iban: foreign }, 0))), foreign).to.equal(country);
      }),
      { numRuns: 500 },
    );
    expect(sample(new Rng(1), { iban: null }, 0)).to.equal(null);
  });

  it("every card number is Luhn-valid and in its network's IIN ranges and length", () => {
    fc.assert(
      fc.property(seeds, fc.constantFrom(...cardNetworks), (seed, network) => {
        const pan = drawPan(new Rng(seed), network);
        expect(luhn(pan), pan).to.equal(true);
        expect(network.lengths).to.include(pan.length);
        expect(panNetwork(pan), pan).to.equal(network.name);
        expect(validatePan(pan, network.name)).to.equal(true);
      }),
      { numRuns: 3000 },
    );
  });

  it('every ISIN has a valid check digit', () => {
    fc.assert(
      fc.property(seeds, fc.constantFrom('US', 'GB', 'DE', 'FR', 'JP'), (seed, country) => {
        const isin = drawIsin(new Rng(seed), country);
        expect(isin).to.match(/^[A-Z]{2}[A-Z0-9]{9}\d$/);
        expect(isinValidIndependently(isin), isin).to.equal(true);
        expect(validateIsin(isin)).to.equal(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('validates known real identifiers', () => {
    expect(validateIsin('US0378331005')).to.equal(true); // Apple
    expect(validateIsin('US0378331006')).to.equal(false);
    expect(validateIban('GB82WEST12345698765432')).to.equal(true);
    expect(validateIban('GB83WEST12345698765432')).to.equal(false);
    expect(validateIban('BE68539007547034')).to.equal(true);
    expect(validateIban('FR1420041010050500013M02606')).to.equal(true);
    expect(validateIban('ES9121000418450200051332')).to.equal(true);
    expect(validateIban('NO9386011117947')).to.equal(true);
    expect(validateIban('IT60X0542811101000000123456')).to.equal(true);
    expect(validateIban('IT60Y0542811101000000123456')).to.equal(false); // wrong CIN
    expect(validateIban('PT50000201231234567890154')).to.equal(true);
    expect(validateIban('FI2112345600000785')).to.equal(true);
    expect(validateIban('PL61109010140000071219812874')).to.equal(true);
  });
});
