import { countryPools } from '../reference-data/country-pools.js';
import type { LocalePools } from '../reference-data/locale-pools.js';
import type { CompileEnv, Row } from './data-type.js';

/** The parameter of the types whose values follow the row's country, as the catalog documents it. */
export const countryColumnParam = {
  type: 'string',
  description:
    'A column of the same table holding an ISO 3166-1 alpha-2 country: values then come from that ' +
    "country's faker locale (real cities, its calling code, its postcode format) rather than the plan's " +
    "locale. A country without locale data, or a null one, falls back to the plan's locale.",
} as const;

export type PoolName = keyof Omit<LocalePools, 'locale'>;

/**
 * A pool of the row's country: the pools of each country a sampler meets are looked up once, and the last
 * one is kept at hand, so the cost per row is a comparison (rows of a country often come together) or one
 * Map lookup. The engine draws the country before the columns that follow it; a generator drawing one itself
 * passes the row that holds the country.
 */
export function poolOfRowCountry(
  countryColumn: string,
  pool: PoolName,
  env: CompileEnv,
): (row: Row) => readonly string[] {
  const byCountry = new Map<unknown, readonly string[]>();
  let lastCountry: unknown;
  let lastValues: readonly string[] | undefined;
  return (row) => {
    const country = row[countryColumn];
    if (country === lastCountry && lastValues !== undefined) return lastValues;
    let values = byCountry.get(country);
    if (values === undefined) {
      if (country === undefined)
        throw new Error(
          `country_column "${countryColumn}" has no value yet: draw it first (a row function that draws a ` +
            'following column itself passes it the row holding the country)',
        );
      values = ((typeof country === 'string' ? countryPools(country) : undefined) ?? env.pools)[pool];
      byCountry.set(country, values);
    }
    lastCountry = country;
    lastValues = values;
    return values;
  };
}
