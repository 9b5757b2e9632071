import { expect } from 'chai';
import fc from 'fast-check';
import { Rng } from '../../../../core/generation/random/prng.js';
import { drawIban, ibanCheckDigits, validateIban } from '../../../../core/generation/realism/iban.js';

/**
 * The check digit inside German and Dutch account numbers, which the IBAN's own check digits do not
 * cover but strict validators (kontocheck, schwifty's BBAN check) do. Written here from the Deutsche
 * Bundesbank's "Prüfzifferberechnungsmethoden" text and the Dutch eleven test, independently of the engine.
 */
const seeds = fc.integer({ min: 0, max: 2 ** 32 - 1 });
const digitsOf = (text: string) => [...text].map(Number);
const crossSum = (n: number) => Math.floor(n / 10) + (n % 10);

/**
 * Methods 13 and 63: the base number in places 2-7, weights 2,1,2,1,2,1 from the right, cross sums,
 * modulus 10; check in place 8.
 */
function method13(account: string): boolean {
  const base = digitsOf(account.slice(1, 7));
  const sum = base.reduce((total, digit, i) => total + crossSum(digit * (i % 2 === 0 ? 1 : 2)), 0);
  return (10 - (sum % 10)) % 10 === Number(account[7]);
}

/** Method 63 (Deutsche Bank): as 13, and place 1 must be 0. */
const method63 = (account: string) => account[0] === '0' && method13(account);

/**
 * Method 17 (C1's first variant): places 2-7 weighted 1,2,1,2,1,2 from the left, cross sums, minus 1,
 * modulus 11, 10 minus the remainder.
 */
function method17(account: string): boolean {
  const sum = digitsOf(account.slice(1, 7)).reduce(
    (total, digit, i) => total + crossSum(digit * (i % 2 === 0 ? 1 : 2)),
    0,
  );
  const remainder = (sum - 1) % 11;
  return (remainder === 0 ? 0 : 10 - remainder) === Number(account[7]);
}

/**
 * Method C1 (ING-DiBa): 17 unless place 1 is 5; then places 1-9 weighted 1,2,1,…, same arithmetic,
 * check in place 10.
 */
function methodC1(account: string): boolean {
  if (account[0] !== '5') return method17(account);
  const sum = digitsOf(account.slice(0, 9)).reduce(
    (total, digit, i) => total + crossSum(digit * (i % 2 === 0 ? 1 : 2)),
    0,
  );
  const remainder = (sum - 1) % 11;
  return (remainder === 0 ? 0 : 10 - remainder) === Number(account[9]);
}

/**
 * Method 24 (Postbank): from the first non-zero digit of places 1-9 (a leading 3-6 counts as 0, a leading 9
 * zeroes places 1-3), (digit·w + w) mod 11 with w = 1,2,3,…, summed; the last digit of the sum is place 10.
 */
function method24(account: string): boolean {
  const digits = digitsOf(account.slice(0, 9));
  if (digits[0] >= 3 && digits[0] <= 6) digits[0] = 0;
  if (digits[0] === 9) digits.splice(0, 3, 0, 0, 0);
  const first = digits.findIndex((digit) => digit !== 0);
  const sum = digits.slice(first).reduce((total, digit, i) => total + ((digit * ((i % 3) + 1) + (i % 3) + 1) % 11), 0);
  return sum % 10 === Number(account[9]);
}

/** The Dutch eleven test: the ten digits weighted 10 down to 1 sum to a multiple of 11. */
const elevenTest = (account: string) =>
  digitsOf(account).reduce((total, digit, i) => total + digit * (10 - i), 0) % 11 === 0;

const GERMAN_METHODS: Record<string, (account: string) => boolean> = {
  '50070010': method63, // Deutsche Bank
  '50040000': method13, // Commerzbank
  '10010010': method24, // Postbank
  '50010517': methodC1, // ING-DiBa
};

describe('check digits inside national account numbers', () => {
  it("the independent checks accept the Bundesbank's test accounts and refuse its wrong ones", () => {
    expect(
      ['0446786040', '0478046940', '0701625830', '0882095630', '5432112349', '5543223456', '5876556788'].every(
        methodC1,
      ),
    ).to.equal(true);
    expect(['0446786240', '0478046340', '0701625730', '5432112341', '5543223458'].some(methodC1)).to.equal(false);
    expect(['0000138301', '1306118605', '3307118608', '9307118603'].every(method24)).to.equal(true);
    expect(method63('0123456600')).to.equal(true);
    expect(method13('0532013000')).to.equal(true); // DE89 3704 0044 0532 0130 00, the standard example
    expect(elevenTest('0417164300')).to.equal(true); // NL91 ABNA 0417 1643 00
  });

  it("every German IBAN carries an account number that passes its bank's Bundesbank method", () => {
    fc.assert(
      fc.property(seeds, (seed) => {
        const { iban } = drawIban(new Rng(seed), 'DE');
        const check = GERMAN_METHODS[iban.slice(4, 12)];
        expect(check, iban).to.be.a('function');
        expect(check(iban.slice(12)), iban).to.equal(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('every Dutch IBAN carries an account number that passes the eleven test', () => {
    fc.assert(
      fc.property(seeds, (seed) => {
        const { iban } = drawIban(new Rng(seed), 'NL');
        expect(elevenTest(iban.slice(8)), iban).to.equal(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('refuses an IBAN of a known German or Dutch bank whose account check digit is wrong, even with right ISO 13616 digits', () => {
    const withIsoDigits = (country: string, bban: string) => `${country}${ibanCheckDigits(country, bban)}${bban}`;
    expect(validateIban(withIsoDigits('DE', '500700100123456600'))).to.equal(true);
    expect(validateIban(withIsoDigits('DE', '500700100123457600'))).to.equal(false);
    expect(validateIban(withIsoDigits('DE', '500700101123456600'))).to.equal(false); // method 63: place 1 must be 0
    expect(validateIban(withIsoDigits('DE', '500105175432112349'))).to.equal(true);
    expect(validateIban(withIsoDigits('DE', '500105175432112341'))).to.equal(false);
    expect(validateIban(withIsoDigits('DE', '500105170446786040'))).to.equal(true); // C1's first variant (method 17)
    expect(validateIban(withIsoDigits('DE', '500105170446786240'))).to.equal(false);
    expect(validateIban(withIsoDigits('DE', '100100101306118605'))).to.equal(true);
    expect(validateIban(withIsoDigits('DE', '100100101306118606'))).to.equal(false);
    expect(validateIban(withIsoDigits('NL', 'ABNA0417164300'))).to.equal(true);
    expect(validateIban(withIsoDigits('NL', 'ABNA0417164301'))).to.equal(false);
    expect(validateIban('DE89370400440532013000')).to.equal(true); // a bank we do not list: ISO 13616 only
  });
});
