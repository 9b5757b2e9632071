import { createRequire } from 'node:module';
import type { Faker } from '@faker-js/faker';

/**
 * Names, companies, addresses and phone numbers drawn from @faker-js/faker's locale data, precomputed
 * once per worker and locale: generating a cell is then one array index, not one faker call.
 * The pools are drawn by a faker seeded with a constant, so every worker builds the same pools and
 * output stays independent of which worker generated a chunk.
 *
 * Only the plan's locale is imported (`@faker-js/faker/locale/<name>`, with its fallbacks), never the
 * package's index of all locales, which alone would be most of a worker's start-up time.
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
export const POOL_SIZE = 1000;
export const POOL_SEED = 20260101;
const LOCALE_NAME = /^[a-z]{2,3}(_[A-Za-z]{2,8})*$/;
const require = createRequire(import.meta.url);

/**
 * A faker locale name (en_GB, de, fr_CH, …): one the package ships a module for. Every plan asks, and
 * resolving the module is most of planning a quick request (see docs/performance.md), so the locales
 * found are remembered (a few dozen at most; names not found are not, as anyone may send any number).
 */
export function isKnownLocale(locale: string): boolean {
  if (knownLocales.has(locale)) return true;
  if (!LOCALE_NAME.test(locale) || locale === 'base') return false;
  try {
    require.resolve(`@faker-js/faker/locale/${locale}`);
  } catch {
    return false;
  }
  knownLocales.add(locale);
  return true;
}

const knownLocales = new Set<string>();

const cache = new Map<string, LocalePools>();

/** The pools of a locale, built on first use in this thread. */
export function localePools(locale: string): LocalePools {
  let pools = cache.get(locale);
  if (!pools) {
    pools = buildPools(locale, localeFaker(locale));
    cache.set(locale, pools);
  }
  return pools;
}

/** The faker instance of a locale's module (one per thread: whoever draws from it seeds it first). */
export function localeFaker(locale: string): Faker {
  if (!isKnownLocale(locale)) throw new Error(`unknown locale "${locale}"`);
  // require() of the ES module is synchronous (Node >= 20.19), so compiling a plan stays synchronous.
  return (require(`@faker-js/faker/locale/${locale}`) as { faker: Faker }).faker;
}

function buildPools(locale: string, faker: Faker): LocalePools {
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
