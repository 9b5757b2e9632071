import { ibanNationalValid } from '../../generation/realism/iban.js';
import { panNetwork } from '../../generation/realism/pan.js';
import { validateIsin } from '../../generation/realism/isin.js';
import { currencies } from '../../generation/reference-data/currencies.js';
import { merchantCategories } from '../../generation/reference-data/merchant-categories.js';

/**
 * The rules every value of a financial type is held to, row by row. The check digits (ISO 7064 mod 97,
 * Luhn) are computed here again rather than taken from the generators, so that a generator's mistake is
 * not repeated by its check; the national schemes and network ranges come from the engine's reference data.
 * Each check answers the rule a value breaks, or null.
 */
export type ValueCheck = (value: string) => string | null;

const currencyCodes = new Set(currencies.map((currency) => currency.code));
const mccs = new Set(merchantCategories.map((category) => category.mcc));
/** Minor units per ISO 4217 code. */
export const MINOR_UNITS: ReadonlyMap<string, number> = new Map(currencies.map((c) => [c.code, c.minor_units]));

/** ISO 7064 MOD 97-10 over letters as numbers (A = 10 … Z = 35), as ISO 13616 asks of an IBAN. */
export function ibanChecksumValid(iban: string): boolean {
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(iban)) return false;
  const moved = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (let i = 0; i < moved.length; i++) {
    const code = moved.charCodeAt(i);
    const digits = code >= 65 ? code - 55 : code - 48;
    remainder = (remainder * (digits >= 10 ? 100 : 10) + digits) % 97;
  }
  return remainder === 1;
}

/** The Luhn test (ISO/IEC 7812-1 annex B). */
export function luhnPasses(number: string): boolean {
  if (!/^\d{2,}$/.test(number)) return false;
  let sum = 0;
  for (let i = number.length - 1, double = false; i >= 0; i--, double = !double) {
    let digit = number.charCodeAt(i) - 48;
    if (double && (digit *= 2) > 9) digit -= 9;
    sum += digit;
  }
  return sum % 10 === 0;
}

export const VALUE_CHECKS: Readonly<Partial<Record<string, ValueCheck>>> = {
  iban: (value) => (!ibanChecksumValid(value) ? 'iban-iso-13616' : !ibanNationalValid(value) ? 'iban-national' : null),
  bic: (value) => (/^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/.test(value) ? null : 'bic-iso-9362'),
  pan: (value) => (!luhnPasses(value) ? 'pan-luhn' : panNetwork(value) === null ? 'pan-network-range' : null),
  isin: (value) => (validateIsin(value) ? null : 'isin-iso-6166'),
  currency: (value) => (currencyCodes.has(value) ? null : 'currency-iso-4217'),
  mcc: (value) => (mccs.has(value) ? null : 'mcc-iso-18245'),
};

/** A money column's currency that is no ISO 4217 code: the writer could not give its amount its minor units. */
export function currencyUnknown(currency: unknown): string | null {
  return typeof currency === 'string' && MINOR_UNITS.has(currency) ? null : 'amount-currency-unknown';
}
