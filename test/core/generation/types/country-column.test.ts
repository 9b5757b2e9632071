import { expect } from 'chai';
import { renderChunk } from '../../../../core/generation/chunk.js';
import { ChunkLayout } from '../../../../core/generation/layout.js';
import { countries, countryByCode } from '../../../../core/generation/reference-data/countries.js';
import { countryPools } from '../../../../core/generation/reference-data/country-pools.js';
import { localePools, type LocalePools } from '../../../../core/generation/reference-data/locale-pools.js';
import { PlanRuntime } from '../../../../core/generation/runtime.js';
import { dataTypeByName, describeDataType } from '../../../../core/generation/types/index.js';
import { checkColumnParams } from '../../../../core/generation/types/param-checks.js';
import { checkManifest } from '../../../../core/packs/manifest.js';
import { definePack } from '../../../../core/packs/sdk.js';
import { POSTCODE_FORMATS } from '../reference-data/postcode-formats.js';
import { generateInline, planFor, rowsOf } from '../support.js';

const FOLLOWS = { country_column: 'country' } as const;

/** People of every country, their contact details following the country, and two columns that do not. */
const pack = definePack({
  name: 'locales',
  version: '1.0.0',
  description: 'People whose names, addresses and phones follow their country.',
  tables: {
    people: {
      description: 'People of every country.',
      default_rows: 10,
      credits_per_1000_rows: 1,
      columns: {
        person_id: { type: 'id', prefix: 'per', description: 'Key.' },
        country: { type: 'country', description: 'Country of residence.' },
        name: { type: 'person_name', ...FOLLOWS, description: 'Full name.' },
        first_name: { type: 'first_name', ...FOLLOWS, description: 'Given name.' },
        last_name: { type: 'last_name', ...FOLLOWS, description: 'Family name.' },
        email: { type: 'email', name_column: 'name', ...FOLLOWS, description: 'E-mail address.' },
        phone: { type: 'phone', ...FOLLOWS, description: 'Phone.' },
        street_address: { type: 'street_address', ...FOLLOWS, description: 'Street.' },
        city: { type: 'city', ...FOLLOWS, description: 'City.' },
        postcode: { type: 'postcode', ...FOLLOWS, description: 'Postcode.' },
        employer: { type: 'company', ...FOLLOWS, description: 'Employer.' },
        plain_city: { type: 'city', description: "A city of the plan's locale." },
        plain_phone: { type: 'phone', description: "A phone of the plan's locale." },
      },
    },
    drawn_first: {
      description: 'The country declared after the name, drawn first by the row function (as packs do).',
      default_rows: 10,
      credits_per_1000_rows: 1,
      columns: {
        drawn_id: { type: 'id', prefix: 'drw', description: 'Key.' },
        name: { type: 'person_name', ...FOLLOWS, description: 'Full name.' },
        city: { type: 'city', ...FOLLOWS, description: 'City.' },
        country: { type: 'country', codes: ['PL', 'SE'], nullable: true, description: 'Country.' },
      },
      row: (ctx) => ({ country: ctx.index % 3 === 2 ? null : ctx.draw.country() }),
    },
    late: {
      description: 'A city declared before its country: the engine draws the country first.',
      default_rows: 10,
      credits_per_1000_rows: 1,
      columns: {
        late_id: { type: 'id', prefix: 'lat', description: 'Key.' },
        city: { type: 'city', ...FOLLOWS, description: 'City.' },
        country: { type: 'country', description: 'Country.' },
      },
    },
    eager: {
      description: 'A row function that draws a following column itself, with no country in hand.',
      default_rows: 10,
      credits_per_1000_rows: 1,
      columns: {
        eager_id: { type: 'id', prefix: 'eag', description: 'Key.' },
        city: { type: 'city', ...FOLLOWS, description: 'City.' },
        country: { type: 'country', description: 'Country.' },
      },
      row: (ctx) => ({ city: ctx.draw.city() }),
    },
  },
});

const SEEDS = [1, 7, 42, 2024, 99991];
const ROWS = 3000;

function generate(table: string, seed: number, rows = ROWS, locale?: string) {
  return generateInline(pack, planFor(pack, { seed, locale, tables: [{ name: table, rows }] }), table);
}

type PoolSets = { [name in Exclude<keyof LocalePools, 'locale'>]: ReadonlySet<string> };

const poolSets = new Map<LocalePools, PoolSets>();

/** A country's or locale's pools as sets: a row checked against ten arrays of a thousand values each is slow. */
function setsOf(pools: LocalePools): PoolSets {
  let sets = poolSets.get(pools);
  if (!sets) {
    sets = {
      first_names: new Set(pools.first_names),
      last_names: new Set(pools.last_names),
      companies: new Set(pools.companies),
      street_addresses: new Set(pools.street_addresses),
      cities: new Set(pools.cities),
      postcodes: new Set(pools.postcodes),
      phone_numbers: new Set(pools.phone_numbers),
      email_domains: new Set(pools.email_domains),
    };
    poolSets.set(pools, sets);
  }
  return sets;
}

/** Whether `name` is a given name of the pools then a family name of the pools (either may hold spaces). */
function isFullName(name: string, pools: PoolSets): boolean {
  for (let space = name.indexOf(' '); space > 0; space = name.indexOf(' ', space + 1))
    if (pools.first_names.has(name.slice(0, space)) && pools.last_names.has(name.slice(space + 1))) return true;
  return false;
}

const has = (pool: ReadonlySet<string>, value: unknown) => typeof value === 'string' && pool.has(value);

describe('country_column: values that follow the row country', () => {
  it('gives every country its calling code, postcode format, real cities, names and mail domains', () => {
    const seen = new Set<string>();
    for (const seed of SEEDS) {
      for (const row of rowsOf(generate('people', seed))) {
        const country = String(row.country);
        seen.add(country);
        const pools = setsOf(countryPools(country)!);
        const where = `seed ${seed}, ${country}: ${JSON.stringify(row)}`;
        expect(String(row.phone), where).to.match(new RegExp(`^\\+${countryByCode.get(country)!.calling_code}\\d+$`));
        expect(String(row.postcode), where).to.match(POSTCODE_FORMATS[country]);
        expect(has(pools.phone_numbers, row.phone), where).to.equal(true);
        expect(has(pools.postcodes, row.postcode), where).to.equal(true);
        expect(has(pools.cities, row.city), where).to.equal(true);
        expect(has(pools.street_addresses, row.street_address), where).to.equal(true);
        expect(has(pools.first_names, row.first_name), where).to.equal(true);
        expect(has(pools.last_names, row.last_name), where).to.equal(true);
        expect(has(pools.companies, row.employer), where).to.equal(true);
        expect(isFullName(String(row.name), pools), where).to.equal(true);
        expect(has(pools.email_domains, String(row.email).split('@')[1]), where).to.equal(true);
      }
    }
    expect([...seen].sort()).to.deep.equal(countries.map((country) => country.alpha2).sort());
  });

  it("leaves a column without it on the plan's locale, and is itself unmoved by the plan's locale", () => {
    for (const seed of SEEDS.slice(0, 3)) {
      const british = rowsOf(generate('people', seed, 500));
      const german = rowsOf(generate('people', seed, 500, 'de'));
      const gb = setsOf(localePools('en_GB'));
      const de = setsOf(localePools('de'));
      for (const row of british)
        expect(has(gb.cities, row.plain_city) && has(gb.phone_numbers, row.plain_phone)).to.equal(true);
      for (const row of german)
        expect(has(de.cities, row.plain_city) && has(de.phone_numbers, row.plain_phone)).to.equal(true);
      const followers = ({ plain_city: _city, plain_phone: _phone, ...row }: Record<string, unknown>) => row;
      expect(german.map(followers)).to.deep.equal(british.map(followers));
    }
  });

  it('gives the same bytes whatever order the chunks are generated in, in fresh runtimes', () => {
    for (const seed of SEEDS.slice(0, 3)) {
      const plan = { ...planFor(pack, { seed, tables: [{ name: 'people', rows: 1200 }] }), chunk_rows: 256 };
      const layout = new ChunkLayout(pack, plan, 'people');
      const decoder = new TextDecoder();
      const forward = generateInline(pack, plan, 'people');
      const chunks: string[] = [];
      for (let i = layout.count - 1; i >= 0; i--)
        chunks[i] = decoder.decode(renderChunk(new PlanRuntime(pack, plan), 'people', layout.at(i), 'ndjson'));
      expect(layout.count).to.be.greaterThan(1);
      expect(chunks.join('')).to.equal(forward);
      expect(generate('people', seed, 1200)).to.equal(forward);
    }
  });

  it("follows a country the row function drew first, and falls back to the plan's locale for a null one", () => {
    for (const seed of SEEDS) {
      for (const row of rowsOf(generate('drawn_first', seed, 600))) {
        const pools = setsOf(row.country === null ? localePools('en_GB') : countryPools(String(row.country))!);
        expect(has(pools.cities, row.city), JSON.stringify(row)).to.equal(true);
        expect(isFullName(String(row.name), pools), JSON.stringify(row)).to.equal(true);
      }
    }
  });

  it('draws the country before a column that follows it and is declared before it', () => {
    for (const seed of SEEDS) {
      for (const row of rowsOf(generate('late', seed, 600))) {
        const pools = setsOf(countryPools(String(row.country))!);
        expect(has(pools.cities, row.city), JSON.stringify(row)).to.equal(true);
      }
    }
  });

  it('fails, naming the column and the fix, when a generator draws the column before any country', () => {
    expect(() => generate('eager', 1, 10)).to.throw(/country_column "country" has no value yet: draw it first/);
  });
});

describe('country_column in the catalog and the manifest', () => {
  const following = ['person_name', 'first_name', 'last_name', 'email', 'phone', 'street_address', 'city', 'postcode'];

  it('is a documented parameter of every person and address type (and company)', () => {
    for (const name of [...following, 'company']) {
      const { params } = describeDataType(dataTypeByName.get(name)!);
      expect(params, name).to.have.nested.property('properties.country_column.type', 'string');
      expect(params, name)
        .to.have.nested.property('properties.country_column.description')
        .that.matches(/ISO 3166-1 alpha-2/);
      expect(checkColumnParams(name, { country_column: 'country' }), name).to.deep.equal([]);
      expect(checkColumnParams(name, { country_column: 3 }), name).to.have.length(1);
    }
  });

  it('must name a column of the table', () => {
    const broken = {
      ...pack,
      tables: { late: { ...pack.tables.late, columns: { ...pack.tables.late.columns, country: undefined } } },
    };
    delete broken.tables.late.columns.country;
    expect(checkManifest(broken).join('\n')).to.match(/country_column names no column of the table \("country"\)/);
  });
});
