import { defineDataType, type CompileEnv, type Row, type Sampler } from './data-type.js';
import { cachedLocalPartOf } from './email-local-part.js';
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
    return (rng, row) => {
      const firsts = firstNames(row);
      const first = Math.floor(rng.next() * firsts.length);
      const lasts = lastNames(row);
      const last = Math.floor(rng.next() * lasts.length);
      const name = `${firsts[first]} ${lasts[last]}`;
      lastDrawn.name = name;
      lastDrawn.firsts = firsts;
      lastDrawn.first = first;
      lastDrawn.lasts = lasts;
      lastDrawn.last = last;
      return name;
    };
  },
});

/**
 * The name person_name drew last in this thread, with its pools and positions: an e-mail built from it in the same
 * row (`name_column`) joins the local parts of the two pool entries, computed once per pool, instead of
 * normalising the name again. Any other name is normalised; both give the same local part.
 */
const lastDrawn = { name: '', firsts: NO_NAMES, first: 0, lasts: NO_NAMES, last: 0 };

function localPartOfName(name: string): string {
  if (name !== lastDrawn.name) return cachedLocalPartOf(name);
  const first = localPartsOf(lastDrawn.firsts)[lastDrawn.first];
  const last = localPartsOf(lastDrawn.lasts)[lastDrawn.last];
  return first && last ? `${first}.${last}` : first || last;
}

/** Each pool entry's local part (cachedLocalPartOf), computed on first use of the pool. */
function localPartsOf(pool: readonly string[]): readonly string[] {
  let parts = localParts.get(pool);
  if (parts === undefined) localParts.set(pool, (parts = pool.map(cachedLocalPartOf)));
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
      const name = name_column
        ? String(row[name_column] ?? '')
        : `${rng.pick(firstNames(row))} ${rng.pick(lastNames(row))}`;
      const local = (name_column ? localPartOfName(name) : cachedLocalPartOf(name)) || 'user';
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
