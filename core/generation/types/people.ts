import { defineDataType, type CompileEnv, type Row, type Sampler } from './data-type.js';
import type { Rng } from '../random/prng.js';
import { joinedLocalParts, localPartOf } from './email-local-part.js';
import { countryColumnParam, poolOfRowCountry, type PoolName } from './country-column.js';

interface CountryParams {
  country_column?: string;
}

const NO_NAMES: readonly string[] = [];

const SOURCE = "from the plan's locale, or the locale of the row's `country_column`, through @faker-js/faker's data";

/** A type drawn from one of the locale pools precomputed from @faker-js/faker's locale data. */
function fromPool(name: string, description: string, example: string, pool: PoolName) {
  return defineDataType<CountryParams>({
    name,
    description: `${description} (${SOURCE}).`,
    json_type: 'string',
    params: { properties: { country_column: countryColumnParam } },
    overridable: [],
    example,
    compile: ({ country_column }, env: CompileEnv): Sampler => {
      if (country_column !== undefined) {
        const valuesOf = poolOfRowCountry(country_column, pool, env);
        return (rng, row) => {
          const values = valuesOf(row);
          return values[Math.floor(rng.next() * values.length)];
        };
      }
      const values = env.pools[pool];
      return (rng) => values[Math.floor(rng.next() * values.length)];
    },
  });
}

export const firstName = fromPool('first_name', 'A given name', 'Olivia', 'first_names');
export const lastName = fromPool('last_name', 'A family name', 'Hughes', 'last_names');
export const company = fromPool('company', 'A company name', 'Reichel, Emmerich and Dach', 'companies');
export const streetAddress = fromPool('street_address', 'A street address', '2 George Street', 'street_addresses');
export const city = fromPool('city', 'A city', 'Bristol', 'cities');
export const postcode = fromPool('postcode', 'A postal code', 'SG3 1SE', 'postcodes');
export const phone = fromPool(
  'phone',
  'A phone number in international format (E.164: + and the calling code)',
  '+441759398595',
  'phone_numbers',
);

/** A full name's two pools: the plan locale's, or those of the row's country. */
function namePools(country_column: string | undefined, env: CompileEnv) {
  if (country_column === undefined) {
    const { first_names, last_names } = env.pools;
    return { firstNames: () => first_names, lastNames: () => last_names };
  }
  return {
    firstNames: poolOfRowCountry(country_column, 'first_names', env),
    lastNames: poolOfRowCountry(country_column, 'last_names', env),
  };
}

export const personName = defineDataType<CountryParams>({
  name: 'person_name',
  description: `A person's full name, given then family name (${SOURCE}).`,
  json_type: 'string',
  params: { properties: { country_column: countryColumnParam } },
  overridable: [],
  example: 'Olivia Hughes',
  compile: ({ country_column }, env) => {
    const { firstNames, lastNames } = namePools(country_column, env);
    return (rng, row) => drawFullName(rng, firstNames(row), lastNames(row));
  },
});

/**
 * The name person_name drew last in this thread, with its pools and positions: an e-mail built from it in the same
 * row joins the local parts of the two pool entries, computed once per pool, instead of normalising the name again.
 */
const lastDrawn = { name: '', firsts: NO_NAMES, first: 0, lasts: NO_NAMES, last: 0 };

/** A given name then a family name from the pools, remembered for the e-mail that may follow. */
function drawFullName(rng: Rng, firsts: readonly string[], lasts: readonly string[]): string {
  const first = Math.floor(rng.next() * firsts.length);
  const last = Math.floor(rng.next() * lasts.length);
  const name = `${firsts[first]} ${lasts[last]}`;
  lastDrawn.name = name;
  lastDrawn.firsts = firsts;
  lastDrawn.first = first;
  lastDrawn.lasts = lasts;
  lastDrawn.last = last;
  return name;
}

/** The local part of a name: from its pool entries' when it is the name just drawn (the same text either way). */
function localPartOfName(name: string): string {
  if (name !== lastDrawn.name) return localPartOf(name);
  return joinedLocalParts(
    localPartsOf(lastDrawn.firsts)[lastDrawn.first],
    localPartsOf(lastDrawn.lasts)[lastDrawn.last],
  );
}

/** Each pool entry's local part, computed on first use of the pool. */
function localPartsOf(pool: readonly string[]): readonly string[] {
  let parts = localParts.get(pool);
  if (parts === undefined) localParts.set(pool, (parts = pool.map(localPartOf)));
  return parts;
}
const localParts = new WeakMap<readonly string[], readonly string[]>();

export const email = defineDataType<CountryParams & { name_column?: string }>({
  name: 'email',
  description:
    "An e-mail address at a free-mail domain, built from the row's `name_column` when given; the domains (and " +
    "the name, without `name_column`) are the row's `country_column`'s when given, else the plan locale's.",
  json_type: 'string',
  params: {
    properties: {
      name_column: { type: 'string', description: 'A column of the same table holding the name to build it from.' },
      country_column: countryColumnParam,
    },
  },
  overridable: [],
  example: 'olivia.hughes42@gmail.com',
  compile: ({ name_column, country_column }, env) => {
    const { firstNames, lastNames } = namePools(country_column, env);
    const localeDomains = country_column === undefined ? env.pools.email_domains : [];
    const domainsOf: (row: Row) => readonly string[] =
      country_column === undefined ? () => localeDomains : poolOfRowCountry(country_column, 'email_domains', env);
    return (rng, row: Row) => {
      const name = name_column ? String(row[name_column] ?? '') : drawFullName(rng, firstNames(row), lastNames(row));
      const local = localPartOfName(name) || 'user';
      return `${local}${rng.int(1, 99)}@${rng.pick(domainsOf(row))}`;
    };
  },
});

export const text = defineDataType<{ values?: string[] }>({
  name: 'string',
  description: "Free text: one of `values`, or computed by the table's generator.",
  json_type: 'string',
  params: { properties: { values: { type: 'array', items: { type: 'string' }, minItems: 1 } } },
  overridable: ['values'],
  example: 'Card payment',
  compile:
    ({ values }) =>
    (rng) => {
      if (!values) throw new Error("a string column without `values` must be set by the table's row generator");
      return rng.pick(values);
    },
});
