import { expect } from 'chai';
import { countries } from '../../../../core/generation/reference-data/countries.js';
import { countryLocales } from '../../../../core/generation/reference-data/country-locales.js';
import { CountryPools, countryPools } from '../../../../core/generation/reference-data/country-pools.js';
import { isKnownLocale, localeFaker } from '../../../../core/generation/reference-data/locale-pools.js';
import { POSTCODE_FORMATS } from './postcode-formats.js';

/** The first of the American cities English locales inherit from faker's `en`: a city of no country but the US. */
const AMERICAN_CITY = 'Abilene';

describe('country pools', () => {
  it('cover every country the country type can draw, each with a faker locale the engine knows', () => {
    for (const { alpha2 } of countries) {
      expect(countryLocales, alpha2).to.have.property(alpha2);
      expect(isKnownLocale(countryLocales[alpha2].locale), alpha2).to.equal(true);
      expect(POSTCODE_FORMATS, alpha2).to.have.property(alpha2);
    }
    expect(countryPools('XX')).to.equal(undefined);
    expect(countryPools('constructor')).to.equal(undefined);
  });

  for (const { alpha2, calling_code } of countries) {
    it(`${alpha2}: phones under +${calling_code}, postcodes in its format, real cities, names of its locale`, () => {
      const pools = countryPools(alpha2)!;
      // E.164: at most 15 digits in all; a national number of 7 digits at the least (Luxembourg's shortest).
      const phone = new RegExp(`^\\+${calling_code}\\d{7,${15 - calling_code.length}}$`);
      for (const number of pools.phone_numbers) expect(number, alpha2).to.match(phone);
      for (const code of pools.postcodes) expect(code, alpha2).to.match(POSTCODE_FORMATS[alpha2]);
      expect(pools.cities.length, alpha2).to.be.greaterThan(0);
      if (alpha2 !== 'US') expect(pools.cities, alpha2).not.to.include(AMERICAN_CITY);
      const curated = countryLocales[alpha2].cities;
      const faker = localeFaker(countryLocales[alpha2].locale);
      expect(pools.cities, alpha2).to.deep.equal(curated ?? faker.definitions.location.city_name);
      for (const pool of [pools.first_names, pools.last_names, pools.street_addresses, pools.email_domains]) {
        expect(pool.length, alpha2).to.be.greaterThan(0);
        for (const value of pool) expect(value, alpha2).to.be.a('string').and.not.equal('');
      }
    });
  }

  it('draw names from the country locale: a German pool holds German names, a Polish one Polish', () => {
    const german = localeFaker('de').definitions.person.last_name;
    const polish = localeFaker('pl').definitions.person.last_name;
    const flat = (names: unknown) => Object.values(names as Record<string, string[]>).flat();
    const germanNames = new Set(Array.isArray(german) ? german : flat(german));
    const polishNames = new Set(Array.isArray(polish) ? polish : flat(polish));
    expect(countryPools('DE')!.last_names.every((name) => germanNames.has(name))).to.equal(true);
    expect(countryPools('PL')!.last_names.every((name) => polishNames.has(name))).to.equal(true);
  });

  it('are the same whatever was drawn before them from the same faker (as in workers that met other countries)', () => {
    // Saudi Arabia, Kuwait and the UAE share the `ar` faker instance; draw in opposite orders.
    const faker = localeFaker('ar');
    const first = new CountryPools(countryLocales.SA, faker);
    const firstPhones = first.phone_numbers;
    const firstNames = first.first_names;
    faker.person.firstName();
    const kuwait = new CountryPools(countryLocales.KW, faker);
    void kuwait.street_addresses;
    const second = new CountryPools(countryLocales.SA, faker);
    expect(second.first_names).to.deep.equal(firstNames);
    expect(second.phone_numbers).to.deep.equal(firstPhones);
    expect(countryPools('SA')!.phone_numbers).to.deep.equal(firstPhones);
  });
});
