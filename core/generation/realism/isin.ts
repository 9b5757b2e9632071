import type { Rng } from '../prng.js';
import { lettersToDigits, luhnCheckDigit } from './checksums.js';

/** ISINs (ISO 6166): country, 9-character national number, and the Luhn check over the letter-expanded digits. */
const NSIN_CHARS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

export function drawIsin(rng: Rng, country: string): string {
  const payload = country + rng.digits(1) + rng.chars(NSIN_CHARS, 8);
  return payload + isinCheckDigit(payload);
}

export function isinCheckDigit(payload: string): number {
  return luhnCheckDigit(lettersToDigits(payload));
}

export function validateIsin(isin: string): boolean {
  return /^[A-Z]{2}[A-Z0-9]{9}\d$/.test(isin) && isinCheckDigit(isin.slice(0, 11)) === Number(isin[11]);
}
