import { expect } from 'chai';
import { validateConfig } from '../../core/configs/validate.js';
import { parseYamlSource } from '../../core/configs/yaml-source.js';
import { normaliseConfig } from '../../core/configs/normalise.js';
import { estimateConfig } from '../../core/configs/estimate.js';
import type { GenerationConfig } from '../../core/configs/config-schema.js';
import { fixtureCatalog } from './fixture-catalog.js';

const valid = (yaml: string) => {
  const source = parseYamlSource(yaml);
  return validateConfig(source.value, fixtureCatalog, source);
};

describe('config validation', () => {
  it('accepts the config of DESIGN.md section 6', () => {
    const result = valid(`version: 1
sector: cards
seed: 42
locale: en_GB
tables:
  - name: transactions
    rows: 1000000
    columns:
      amount: { distribution: lognormal, mu: 3.2, sigma: 1.1 }
      channel: { weights: { pos: 5, ecommerce: 4, atm: 1 }, null_rate: 0.01 }
    options: { fraud_rate: 0.002 }
output: { format: csv, compression: gzip }
`);
    expect(result.errors).to.deep.equal([]);
    expect(result.valid).to.equal(true);
  });

  it('points each schema error at its YAML line and column', () => {
    const result = valid(`version: 1
sector: cards
tables:
  - name: transactions
    rows: many
    colour: blue
  - name: accounts
output: { format: xlsx }
`);
    expect(result.valid).to.equal(false);
    expect(result.errors).to.deep.include.members([
      { pointer: '/tables/0/rows', message: 'must be integer', line: 5, column: 11 },
      { pointer: '/tables/0/colour', message: 'unknown member "colour"', line: 6, column: 5 },
      { pointer: '/tables/1/rows', message: 'the member "rows" is required', line: 7, column: 5 },
      { pointer: '/output/format', message: 'must be one of: "ndjson", "csv", "json"', line: 8, column: 19 },
    ]);
  });

  it('requires the parameters of a distribution, and a distribution for parameters', () => {
    const result = valid(`version: 1
sector: cards
tables:
  - name: transactions
    rows: 10
    columns:
      amount: { distribution: lognormal, mu: 3 }
      channel: { sigma: 2 }
`);
    expect(result.errors.map(({ pointer, message }) => ({ pointer, message }))).to.deep.include.members([
      { pointer: '/tables/0/columns/amount/sigma', message: 'the member "sigma" is required' },
      { pointer: '/tables/0/columns/channel', message: '"sigma" needs "distribution"' },
    ]);
  });

  it('checks sector, tables, columns, overrides and options against the packs', () => {
    const result = valid(`version: 1
sector: cards
tables:
  - name: transactions
    rows: 10
    columns:
      colour: { null_rate: 0.5 }
      channel: { distribution: uniform, min: 0, max: 1, weights: { cheque: 1 } }
    options: { fraud_rate: 2 }
  - name: loans
    rows: 10
  - name: transactions
    rows: 5
`);
    expect(result.errors).to.deep.include.members([
      { pointer: '/tables/0/options/fraud_rate', message: 'must be <= 1', line: 9, column: 28 },
      { pointer: '/tables/0/columns/colour', message: 'the table "transactions" has no column "colour"', line: 7, column: 7 },
      { pointer: '/tables/0/columns/channel/distribution', message: '"channel" is of type enum: only numeric columns take a distribution', line: 8, column: 32 },
      { pointer: '/tables/0/columns/channel/weights/cheque', message: '"cheque" is not a value of "channel"; values: pos, ecommerce, atm', line: 8, column: 68 },
      { pointer: '/tables/1/name', message: 'the sector "cards" has no table "loans"; known: accounts, transactions', line: 10, column: 11 },
      { pointer: '/tables/2/name', message: 'the table "transactions" is listed twice', line: 12, column: 11 },
    ]);
    expect(valid('version: 1\nsector: crypto\ntables: [{ name: coins, rows: 1 }]\n').errors).to.deep.equal([
      { pointer: '/sector', message: 'unknown sector "crypto"; known: cards', line: 2, column: 9 },
    ]);
  });

  it('validates JSON values the same way, without positions', () => {
    const result = validateConfig({ version: 2, sector: 'cards', tables: [] }, fixtureCatalog);
    expect(result.errors).to.deep.equal([
      { pointer: '/version', message: 'must be 1' },
      { pointer: '/tables', message: 'must NOT have fewer than 1 items' },
    ]);
  });

  it('normalises defaults and estimates credits per table with the price rule', () => {
    const config: GenerationConfig = { version: 1, sector: 'cards', tables: [{ name: 'transactions', rows: 1500 }, { name: 'accounts', rows: 1 }] };
    expect(normaliseConfig(config)).to.deep.equal({
      version: 1,
      sector: 'cards',
      locale: 'en_GB',
      tables: [{ name: 'transactions', rows: 1500, options: {} }, { name: 'accounts', rows: 1, options: {} }],
      output: { format: 'ndjson', compression: 'none' },
    });
    expect(estimateConfig(config, fixtureCatalog)).to.deep.equal({
      rows: 1501,
      credits: 4,
      tables: [
        { name: 'transactions', rows: 1500, credits_per_1000_rows: 2, credits: 3 },
        { name: 'accounts', rows: 1, credits_per_1000_rows: 1, credits: 1 },
      ],
    });
  });
});
