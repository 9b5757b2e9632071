/**
 * Amounts are integers in the currency's minor unit (cents for EUR), as payment providers count them,
 * so that sums are exact. The pricing file writes prices in major units for people to read.
 */
const MINOR_UNITS: Record<string, number> = { EUR: 2, USD: 2, GBP: 2, CHF: 2, JPY: 0 };

export function toMinorUnits(price: number, currency: string): number {
  return Math.round(price * 10 ** minorUnits(currency));
}

export function minorUnits(currency: string): number {
  const digits = MINOR_UNITS[currency];
  if (digits === undefined) throw new Error(`currency ${currency} has no known minor unit`);
  return digits;
}
