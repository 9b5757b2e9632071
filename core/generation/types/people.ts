import { defineDataType, type CompileEnv, type Row, type Sampler } from './data-type.js';
import type { LocalePools } from '../reference-data/locale-pools.js';

/** A type drawn from one of the locale pools precomputed from @faker-js/faker's locale data. */
function fromPool(name: string, description: string, example: string, pool: keyof Omit<LocalePools, 'locale'>) {
  return defineDataType<Record<string, never>>({
    name,
    description: `${description} (from the plan's locale, through @faker-js/faker's locale data).`,
    json_type: 'string',
    params: {},
    overridable: [],
    example,
    compile: (_params, env: CompileEnv): Sampler => {
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
export const phone = fromPool('phone', 'A phone number in international format', '+441759398595', 'phone_numbers');

export const personName = defineDataType<Record<string, never>>({
  name: 'person_name',
  description:
    "A person's full name, given then family name (from the plan's locale, through @faker-js/faker's locale data).",
  json_type: 'string',
  params: {},
  overridable: [],
  example: 'Olivia Hughes',
  compile:
    (_params, { pools }) =>
    (rng) =>
      `${rng.pick(pools.first_names)} ${rng.pick(pools.last_names)}`,
});

const ASCII_LOCAL_PART = /[^a-z0-9]+/g;

export const email = defineDataType<{ name_column?: string }>({
  name: 'email',
  description: "An e-mail address at a free-mail domain, built from the row's `name_column` when given.",
  json_type: 'string',
  params: { properties: { name_column: { type: 'string' } } },
  overridable: [],
  example: 'olivia.hughes42@gmail.com',
  compile:
    ({ name_column }, { pools }) =>
    (rng, row: Row) => {
      const name = name_column
        ? String(row[name_column] ?? '')
        : `${rng.pick(pools.first_names)} ${rng.pick(pools.last_names)}`;
      const local =
        name
          .normalize('NFD')
          .toLowerCase()
          .replace(ASCII_LOCAL_PART, '.')
          .replace(/^\.|\.$/g, '') || 'user';
      return `${local}${rng.int(1, 99)}@${rng.pick(pools.email_domains)}`;
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
