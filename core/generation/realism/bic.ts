import { bankByBic } from '../reference-data/iban-formats.js';

/**
 * BICs (ISO 9362): 4 letters of bank, the ISO 3166 country, 2 characters of location, an optional
 * 3-character branch. `bicOfIban` gives the BIC of the bank that the IBAN's bank code names.
 */
export function validateBic(bic: string): boolean {
  return /^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/.test(bic);
}

export function bicCountry(bic: string): string {
  return bic.slice(4, 6);
}

/** The country of the bank a BIC names, checked against the banks we know (null when unknown). */
export function knownBank(bic: string): { name: string; country: string } | null {
  return bankByBic.get(bic.slice(0, 8)) ?? null;
}
