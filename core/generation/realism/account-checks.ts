import type { Rng } from '../random/prng.js';
import { luhnCheckDigit } from './checksums.js';
import type { AccountCheck } from '../reference-data/iban-formats.js';

/**
 * Check digits inside national account numbers, where the bank rather than the BBAN's layout decides
 * them: Germany's Prüfzifferberechnungsmethoden (one per bank code, published by the Deutsche
 * Bundesbank) and the Dutch eleven test. The IBAN's own check digits do not cover them, strict
 * validators (kontocheck, schwifty's BBAN check) do. Every scheme here works on ten digits.
 */
interface Scheme {
  /** Where the check digit stands (0-based). */
  at: number;
  /** Ten digits as the bank issues them; the digit at `at` is a placeholder. */
  draw(rng: Rng): string;
  /** The check digit the other nine digits call for, or null when they admit none. */
  digit(account: string): number | null;
}

const NON_ZERO = '123456789';

/** A two-digit product's cross sum (products of one digit by 1 or 2 are at most 18). */
const crossSum = (product: number) => (product > 9 ? product - 9 : product);

/** Method 00 on the base number (places 2-7): weights 2,1,2,… from the right, cross sums, modulus 10 (Luhn). */
const baseNumberCheck = (account: string): number => luhnCheckDigit(account.slice(1, 7));

/**
 * Digits `from`..`to` weighted 1,2,1,2,… from the left, cross sums, minus 1, modulus 11, subtracted from 10
 * (methods 17 and C1).
 */
function alternatingMod11(account: string, from: number, to: number): number {
  let sum = 0;
  for (let i = from; i <= to; i++) sum += crossSum((account.charCodeAt(i) - 48) * ((i - from) % 2 === 0 ? 1 : 2));
  const remainder = (sum - 1) % 11;
  return remainder === 0 ? 0 : 10 - remainder;
}

/**
 * Method 13's layout (Commerzbank) and 63's (Deutsche Bank): 0, a six-digit base number, the check digit,
 * a two-digit sub-account. The base number starts with a non-zero digit: a number with 00 in places 2-3
 * is read as shifted by both methods' exception rules.
 */
const drawBaseNumberAccount = (rng: Rng) => `0${rng.chars(NON_ZERO, 1)}${rng.digits(5)}0${rng.digits(2)}`;

const SCHEMES: Record<AccountCheck, Scheme> = {
  'de-13': { at: 7, draw: drawBaseNumberAccount, digit: baseNumberCheck },
  'de-63': {
    at: 7,
    draw: drawBaseNumberAccount,
    digit: (account) => (account[0] === '0' ? baseNumberCheck(account) : null),
  },
  // Method 24 (Postbank); a leading 1, 2, 7 or 8 keeps its exceptions for 3-6, 9 and leading zeros out of the draw.
  'de-24': {
    at: 9,
    draw: (rng) => `${rng.chars('1278', 1)}${rng.digits(8)}0`,
    digit: (account) => {
      const digits = [...account.slice(0, 9)].map(Number);
      if (digits[0] >= 3 && digits[0] <= 6) digits[0] = 0;
      if (digits[0] === 9) digits.fill(0, 0, 3);
      let sum = 0;
      let weight = 0;
      for (const digit of digits) {
        if (weight === 0 && digit === 0) continue; // weighting starts at the first non-zero digit
        weight = (weight % 3) + 1;
        sum += (digit * weight + weight) % 11;
      }
      return sum % 10;
    },
  },
  // Method C1 (ING-DiBa): its second variant for numbers that start with 5, as its current accounts do.
  'de-c1': {
    at: 9,
    draw: (rng) => `5${rng.digits(8)}0`,
    digit: (account) => (account[0] === '5' ? alternatingMod11(account, 0, 8) : null),
  },
  'nl-11': {
    at: 9,
    draw: (rng) => `0${rng.chars(NON_ZERO, 1)}${rng.digits(7)}0`,
    digit: (account) => {
      let sum = 0;
      for (let i = 0; i < 9; i++) sum += (account.charCodeAt(i) - 48) * (10 - i);
      const digit = (11 - (sum % 11)) % 11;
      return digit === 10 ? null : digit;
    },
  },
};

/** C1's first variant (method 17) checks place 8 of numbers that do not start with 5. */
const METHOD_17: Pick<Scheme, 'at' | 'digit'> = { at: 7, digit: (account) => alternatingMod11(account, 1, 6) };

export function drawCheckedAccount(rng: Rng, check: AccountCheck): string {
  const scheme = SCHEMES[check];
  for (;;) {
    const account = scheme.draw(rng);
    const digit = scheme.digit(account);
    if (digit !== null) return account.slice(0, scheme.at) + digit + account.slice(scheme.at + 1);
  }
}

export function accountCheckPasses(account: string, check: AccountCheck): boolean {
  if (!/^\d{10}$/.test(account)) return false;
  const scheme = check === 'de-c1' && account[0] !== '5' ? METHOD_17 : SCHEMES[check];
  return scheme.digit(account) === account.charCodeAt(scheme.at) - 48;
}
