import type { Rng } from '../random/prng.js';
import { lettersToDigits, luhnCheckDigit } from './checksums.js';

/**
 * ISINs (ISO 6166): country, 9-character national number, and the Luhn check over the letter-expanded
 * digits. Where the national numbering carries its own check digit, the national number is one that
 * passes it: a CUSIP in the United States and Canada, "00" and a SEDOL in the United Kingdom and Ireland.
 */
const NSIN_CHARS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
/** SEDOLs leave out vowels; those issued since 2004 start with B. */
const SEDOL_CHARS = '0123456789BCDFGHJKLMNPQRSTVWXYZ';

const charValue = (char: string) => (char <= '9' ? char.charCodeAt(0) - 48 : char.charCodeAt(0) - 55);

/** The CUSIP check digit: values doubled at even places (1-based), digit sums, modulus 10. */
function cusipCheckDigit(base: string): number {
  let sum = 0;
  for (let i = 0; i < 8; i++) {
    const value = charValue(base[i]) * (i % 2 === 1 ? 2 : 1);
    sum += Math.floor(value / 10) + (value % 10);
  }
  return (10 - (sum % 10)) % 10;
}

const SEDOL_WEIGHTS = [1, 3, 1, 7, 3, 9];

function sedolCheckDigit(base: string): number {
  let sum = 0;
  for (let i = 0; i < 6; i++) sum += charValue(base[i]) * SEDOL_WEIGHTS[i];
  return (10 - (sum % 10)) % 10;
}

interface NationalNumbering {
  draw(rng: Rng): string;
  valid(nsin: string): boolean;
}

const CUSIP: NationalNumbering = {
  draw: (rng) => {
    const base = rng.digits(6) + rng.chars(NSIN_CHARS, 2);
    return base + cusipCheckDigit(base);
  },
  valid: (nsin) => cusipCheckDigit(nsin) === Number(nsin[8]),
};

const SEDOL: NationalNumbering = {
  draw: (rng) => {
    const base = rng.chance(0.5) ? `B${rng.chars(SEDOL_CHARS, 5)}` : rng.digits(6);
    return `00${base}${sedolCheckDigit(base)}`;
  },
  valid: (nsin) =>
    /^00[0-9BCDFGHJKLMNPQRSTVWXYZ]{6}\d$/.test(nsin) && sedolCheckDigit(nsin.slice(2)) === Number(nsin[8]),
};

const NATIONAL_NUMBERING: Readonly<Record<string, NationalNumbering>> = { US: CUSIP, CA: CUSIP, GB: SEDOL, IE: SEDOL };

export function drawIsin(rng: Rng, country: string): string {
  const numbering = NATIONAL_NUMBERING[country];
  const payload = country + (numbering ? numbering.draw(rng) : rng.digits(1) + rng.chars(NSIN_CHARS, 8));
  return payload + isinCheckDigit(payload);
}

export function isinCheckDigit(payload: string): number {
  return luhnCheckDigit(lettersToDigits(payload));
}

export function validateIsin(isin: string): boolean {
  if (!/^[A-Z]{2}[A-Z0-9]{9}\d$/.test(isin) || isinCheckDigit(isin.slice(0, 11)) !== Number(isin[11])) return false;
  const numbering = NATIONAL_NUMBERING[isin.slice(0, 2)];
  return !numbering || numbering.valid(isin.slice(2, 11));
}
