import { Faker, allLocales, base, en, type LocaleDefinition } from '@faker-js/faker';

/**
 * Names, companies, addresses and phone numbers drawn from @faker-js/faker's locale data, precomputed
 * once per worker and locale: generating a cell is then one array index, not one faker call.
 * The pools are drawn by a faker seeded with a constant, so every worker builds the same pools and
 * output stays independent of which worker generated a chunk.
 */
export interface LocalePools {
  locale: string;
  first_names: readonly string[];
  last_names: readonly string[];
  companies: readonly string[];
  street_addresses: readonly string[];
  cities: readonly string[];
  postcodes: readonly string[];
  phone_numbers: readonly string[];
  email_domains: readonly string[];
}

export const DEFAULT_LOCALE = 'en_GB';
const POOL_SIZE = 1000;
const POOL_SEED = 20260101;
const fakerLocales = allLocales as Record<string, LocaleDefinition>;

export function isKnownLocale(locale: string): boolean {
  return Object.hasOwn(fakerLocales, locale) && locale !== 'base';
}

const cache = new Map<string, LocalePools>();

export function localePools(locale: string): LocalePools {
  let pools = cache.get(locale);
  if (!pools) {
    pools = buildPools(locale);
    cache.set(locale, pools);
  }
  return pools;
}

function buildPools(locale: string): LocalePools {
  if (!isKnownLocale(locale)) throw new Error(`unknown locale "${locale}"`);
  const faker = new Faker({ locale: [fakerLocales[locale], en, base] });
  faker.seed(POOL_SEED);
  const draw = (make: () => string): string[] => Array.from({ length: POOL_SIZE }, make);
  return {
    locale,
    first_names: draw(() => faker.person.firstName()),
    last_names: draw(() => faker.person.lastName()),
    companies: draw(() => faker.company.name()),
    street_addresses: draw(() => faker.location.streetAddress()),
    cities: draw(() => faker.location.city()),
    postcodes: draw(() => faker.location.zipCode()),
    phone_numbers: draw(() => faker.phone.number({ style: 'international' })),
    email_domains: faker.definitions.internet.free_email,
  };
}
