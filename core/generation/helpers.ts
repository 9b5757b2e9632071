import type { Rng } from './random/prng.js';
import { weightedPick as compileWeightedPick } from './random/distributions.js';
import { isoDate, isoTimestamp } from './types/time-format.js';
import { drawIban, IBAN_COUNTRIES } from './realism/iban.js';
import { drawIsin } from './realism/isin.js';
import { drawPan } from './realism/pan.js';
import { cardNetworkByName, cardNetworks } from './reference-data/card-networks.js';
import { countries, countryByCode } from './reference-data/countries.js';
import { currencies, currencyByCode } from './reference-data/currencies.js';
import { merchantCategories, merchantCategoryByCode } from './reference-data/merchant-categories.js';

/** Pickers compiled once per weights object: a pack passes a constant object, so a pick costs a binary search. */
const pickers = new WeakMap<Readonly<Record<string, number>>, (rng: Rng) => string>();

/**
 * What a pack's generator may use beyond its own columns: realistic identifiers that must agree with
 * other values of the row (an IBAN and its bank, a PAN of a given network), exact money rounding, and the
 * reference data the engine's types draw from.
 */
export const helpers = {
  /** An IBAN of `country` with its bank's BIC and name (see the `iban` type for what is valid about it). */
  iban(rng: Rng, country: string): { iban: string; bic: string; bank_name: string } {
    const drawn = drawIban(rng, country);
    return { iban: drawn.iban, bic: drawn.bank.bic, bank_name: drawn.bank.name };
  },
  /** A Luhn-valid card number in the network's IIN ranges and length. */
  pan(rng: Rng, network: string): string {
    const known = cardNetworkByName.get(network);
    if (!known) throw new Error(`unknown card network "${network}"`);
    return drawPan(rng, known);
  },
  isin(rng: Rng, country: string): string {
    return drawIsin(rng, country);
  },
  /**
   * One of the keys of `weights` (`{ collision: 48, theft: 8 }`), drawn by weight from `rng`. Weights are
   * non-negative and need not sum to one; at least one is positive. Keep `weights` a constant (module-level)
   * object: its cumulative table is built once per object.
   */
  weightedPick(rng: Rng, weights: Readonly<Record<string, number>>): string {
    let pick = pickers.get(weights);
    if (!pick) {
      const entries = Object.entries(weights);
      if (
        !entries.some(([, weight]) => weight > 0) ||
        entries.some(([, weight]) => !(weight >= 0) || !Number.isFinite(weight))
      ) {
        throw new Error(
          `weightedPick: weights must be finite, non-negative and not all zero (${JSON.stringify(weights)})`,
        );
      }
      pick = compileWeightedPick(
        entries.map(([value]) => value),
        entries.map(([, weight]) => weight),
      );
      pickers.set(weights, pick);
    }
    return pick(rng);
  },
  /** ISO 4217 minor units of a currency (2 when the code is unknown). */
  minorUnits(currency: string): number {
    return currencyByCode.get(currency)?.minor_units ?? 2;
  },
  /** An amount rounded to the currency's minor units. */
  round(amount: number, currency: string): number {
    const factor = 10 ** helpers.minorUnits(currency);
    return Math.round(amount * factor) / factor;
  },
  /** An amount in the currency's minor units as an integer: keep running sums exact in these. */
  toMinor(amount: number, currency: string): number {
    return Math.round(amount * 10 ** helpers.minorUnits(currency));
  },
  fromMinor(minor: number, currency: string): number {
    return minor / 10 ** helpers.minorUnits(currency);
  },
  /** ISO 8601 UTC text of an instant (ms since the epoch), much faster than Date#toISOString. */
  isoTimestamp,
  /** YYYY-MM-DD of an instant (ms since the epoch). */
  isoDate,
  ibanCountries: IBAN_COUNTRIES,
  currencies,
  currencyByCode,
  countries,
  countryByCode,
  merchantCategories,
  merchantCategoryByCode,
  cardNetworks,
};

export type Helpers = typeof helpers;
