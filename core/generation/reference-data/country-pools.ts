import type { Faker } from '@faker-js/faker';
import { countryLocales, type CountryLocale } from './country-locales.js';
import { localeFaker, POOL_SEED, POOL_SIZE, type LocalePools } from './locale-pools.js';

/**
 * The pools of one country (ISO 3166-1 alpha-2), for columns that follow the row's country: names, streets
 * and companies from the country's faker locale, real cities, phone numbers under its calling code and
 * postcodes in its format. Like the locale pools they are built once per thread from a faker seeded with a
 * constant, so every worker holds the same pools whatever order it met the countries in.
 */
export function countryPools(alpha2: string): LocalePools | undefined {
  let pools = cache.get(alpha2);
  if (pools === undefined) {
    const country = Object.hasOwn(countryLocales, alpha2) ? countryLocales[alpha2] : undefined;
    if (country === undefined) return undefined;
    pools = new CountryPools(country, localeFaker(country.locale));
    cache.set(alpha2, pools);
  }
  return pools;
}

const cache = new Map<string, LocalePools>();

/**
 * Each pool is drawn when a column first asks for it (a table of people never needs companies, the slowest
 * to draw), from a faker seeded afresh, so a pool is the same whichever pools were drawn before it.
 */
export class CountryPools implements LocalePools {
  readonly locale: string;
  private readonly drawn = new Map<string, readonly string[]>();

  constructor(
    private readonly country: CountryLocale,
    private readonly faker: Faker,
  ) {
    this.locale = country.locale;
  }

  get first_names() {
    return this.pool('first_names', () => this.faker.person.firstName());
  }

  get last_names() {
    return this.pool('last_names', () => this.faker.person.lastName());
  }

  get companies() {
    return this.pool('companies', () => this.faker.company.name());
  }

  get street_addresses() {
    return this.pool('street_addresses', () => this.faker.location.streetAddress());
  }

  /** The locale's list of real cities, not faker.location.city(), whose patterns invent names. */
  get cities() {
    return this.country.cities ?? this.faker.definitions.location.city_name;
  }

  get postcodes() {
    const { postcode } = this.country;
    const { faker } = this;
    if (postcode === undefined) return this.pool('postcodes', () => faker.location.zipCode());
    const formats = typeof postcode === 'string' ? [postcode] : postcode;
    return this.pool('postcodes', () => faker.helpers.replaceSymbols(faker.helpers.arrayElement(formats)));
  }

  get phone_numbers() {
    const { phones } = this.country;
    const { faker } = this;
    return this.pool('phone_numbers', () =>
      phones
        ? faker.helpers.replaceSymbols(faker.helpers.arrayElement(phones))
        : faker.phone.number({ style: 'international' }),
    );
  }

  get email_domains() {
    return this.country.email_domains ?? this.faker.definitions.internet.free_email;
  }

  private pool(name: string, make: () => string): readonly string[] {
    let values = this.drawn.get(name);
    if (values === undefined) {
      this.faker.seed(POOL_SEED);
      values = Array.from({ length: POOL_SIZE }, make);
      this.drawn.set(name, values);
    }
    return values;
  }
}
