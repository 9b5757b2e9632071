import type { Rng } from '../random/prng.js';
import {
  ibanFormatByCountry,
  ibanFormats,
  type Bank,
  type IbanFormat,
  type NationalCheck,
} from '../reference-data/iban-formats.js';
import { accountCheckPasses, drawCheckedAccount } from './account-checks.js';
import { lettersToDigits, luhnCheckDigit, mod97 } from './checksums.js';

/**
 * IBANs that pass strict validators: ISO 13616 check digits, the country's length and BBAN structure,
 * the bank code of a real bank of that country, and the national check digits where the BBAN has them.
 */

const ALPHABETS = {
  n: '0123456789',
  a: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ',
  c: '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ',
} as const;

export interface DrawnIban {
  iban: string;
  bank: Bank;
  country: string;
}

export const IBAN_COUNTRIES: readonly string[] = ibanFormats.map((format) => format.country);

export function drawIban(rng: Rng, country: string): DrawnIban {
  const format = ibanFormatByCountry.get(country);
  if (!format) throw new Error(`no IBAN format for country "${country}"`);
  const bank = rng.pick(format.banks);
  for (;;) {
    const parts = drawParts(rng, format, bank);
    const check = format.national_check ? nationalCheck(format.national_check, parts) : '';
    if (check === null) continue; // the scheme has no check digit for this account number: draw another
    const bban = format.bban.map((segment) => (segment.part === 'check' ? check : parts[segment.part])).join('');
    return { iban: `${country}${ibanCheckDigits(country, bban)}${bban}`, bank, country };
  }
}

type Parts = Record<'bank' | 'branch' | 'account', string>;

function drawParts(rng: Rng, format: IbanFormat, bank: Bank): Parts {
  const parts: Parts = { bank: bank.bank_code, branch: '', account: '' };
  for (const segment of format.bban) {
    if (segment.part === 'branch') {
      const prefix = bank.branch_prefix ?? '';
      parts.branch = prefix + rng.chars(ALPHABETS[segment.chars], segment.length - prefix.length);
    } else if (segment.part === 'account') {
      // Account numbers are digits even where letters are allowed: that is what banks issue in practice.
      parts.account = bank.account_check ? drawCheckedAccount(rng, bank.account_check) : rng.digits(segment.length);
    }
  }
  return parts;
}

export function ibanCheckDigits(country: string, bban: string): string {
  return String(98 - mod97(lettersToDigits(`${bban}${country}00`))).padStart(2, '0');
}

/** The national check digits of a BBAN, or null when the account number admits none (Norway's remainder 10). */
function nationalCheck(scheme: NationalCheck, { bank, branch, account }: Parts): string | null {
  switch (scheme) {
    case 'be': {
      const remainder = mod97(bank + account);
      return String(remainder === 0 ? 97 : remainder).padStart(2, '0');
    }
    case 'es':
      return `${mod11Spain(`00${bank}${branch}`)}${mod11Spain(account)}`;
    case 'fi':
      return String(luhnCheckDigit(bank + account));
    case 'fr':
      return String(97 - mod97(`${frenchDigits(bank + branch + account)}00`)).padStart(2, '0');
    case 'it':
      return italianCin(bank + branch + account);
    case 'no': {
      const remainder = weightedSum(bank + account, [5, 4, 3, 2, 7, 6, 5, 4, 3, 2]) % 11;
      if (remainder === 1) return null;
      return String(remainder === 0 ? 0 : 11 - remainder);
    }
    case 'pl': {
      const remainder = weightedSum(bank + branch, [3, 9, 7, 1, 3, 9, 7]) % 10;
      return String(remainder === 0 ? 0 : 10 - remainder);
    }
    case 'pt':
      return String(98 - mod97(`${bank}${branch}${account}00`)).padStart(2, '0');
  }
}

function weightedSum(digits: string, weights: readonly number[]): number {
  let sum = 0;
  for (let i = 0; i < weights.length; i++) sum += (digits.charCodeAt(i) - 48) * weights[i];
  return sum;
}

function mod11Spain(digits: string): number {
  const remainder = weightedSum(digits, [1, 2, 4, 8, 5, 10, 9, 7, 3, 6]) % 11;
  const check = 11 - remainder;
  return check === 11 ? 0 : check === 10 ? 1 : check;
}

/** The RIB key's letter substitution: A/J → 1, B/K/S → 2, … I/R/Z → 9. */
function frenchDigits(text: string): string {
  return text.replace(/[A-Z]/g, (letter) => String(((letter.charCodeAt(0) - 65 + (letter >= 'S' ? 1 : 0)) % 9) + 1));
}

const CIN_ODD = [1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20, 11, 3, 6, 8, 12, 14, 16, 10, 22, 25, 24, 23];

/** Italy's CIN: odd positions (1-based) through the conversion table, even ones by value, modulo 26. */
function italianCin(text: string): string {
  let sum = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const value = code >= 65 ? code - 65 : code - 48;
    sum += i % 2 === 0 ? CIN_ODD[value] : value;
  }
  return String.fromCharCode(65 + (sum % 26));
}

/**
 * A strict check: country format, length, structure, ISO 13616 check digits, the national check digits,
 * and the check digit inside the account number where one of the banks we list issued it.
 */
export function validateIban(iban: string): boolean {
  return ibanNationalValid(iban) && mod97(lettersToDigits(iban.slice(4) + iban.slice(0, 4))) === 1;
}

/**
 * validateIban without the ISO 13616 check digits, for a caller that checks those itself (the conformance report
 * checks them on every row, independently of this module).
 */
export function ibanNationalValid(iban: string): boolean {
  const country = iban.slice(0, 2);
  const format = ibanFormatByCountry.get(country);
  if (!format || iban.length !== format.length || !/^[A-Z]{2}\d{2}[A-Z0-9]+$/.test(iban)) return false;
  const bban = iban.slice(4);
  const segments: Partial<Record<BbanSegmentPart, string>> = {};
  let offset = 0;
  for (const segment of format.bban) {
    const value = bban.slice(offset, (offset += segment.length));
    if (!inAlphabet(value, segment.chars)) return false;
    segments[segment.part] = value;
  }
  const parts = { bank: segments.bank ?? '', branch: segments.branch ?? '', account: segments.account ?? '' };
  if (format.national_check && nationalCheck(format.national_check, parts) !== segments.check) return false;
  const accountCheck = format.banks.find((bank) => bank.bank_code === parts.bank)?.account_check;
  return !accountCheck || accountCheckPasses(parts.account, accountCheck);
}

/** Whether every character of `text` is of the segment's alphabet (`n` digits, `a` capitals, `c` either). */
function inAlphabet(text: string, chars: keyof typeof ALPHABETS): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const digit = code >= 48 && code <= 57;
    const capital = code >= 65 && code <= 90;
    if (chars === 'n' ? !digit : chars === 'a' ? !capital : !(digit || capital)) return false;
  }
  return true;
}

type BbanSegmentPart = IbanFormat['bban'][number]['part'];
