import { expect } from 'chai';
import { validateConfig } from '../../../core/configs/validate.js';
import { parseYamlSource } from '../../../core/configs/yaml-source.js';
import { normaliseConfig } from '../../../core/configs/normalise.js';
import { estimateConfig } from '../../../core/configs/estimate.js';
import type { GenerationConfig } from '../../../core/configs/config-schema.js';
import { fixtureCatalog } from './fixture-catalog.js';

const valid = (yaml: string) => {
  const source = parseYamlSource(yaml);
  return validateConfig(source.value, fixtureCatalog, source);
};

describe('config validation', () => {
  it('accepts a config that uses every part of the format: seed, locale, column overrides, options, output', () => {
    const result = valid(`version: 1
sector: cards
seed: 42
locale: en_GB
tables:
  - name: transactions
    rows: 1000000
    columns:
      amount: { distribution: lognormal, mu: 3.2, sigma: 1.1 }
      entry_mode: { weights: { chip: 5, contactless: 4, online: 1 } }
      settled_at: { null_rate: 0.1 }
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
  - name: cards
output: { format: xlsx }
`);
    expect(result.valid).to.equal(false);
    expect(result.errors).to.deep.include.members([
      { pointer: '/tables/0/rows', message: 'must be integer', line: 5, column: 11 },
      { pointer: '/tables/0/colour', message: 'unknown member "colour"', line: 6, column: 5 },
      { pointer: '/tables/1/rows', message: 'the member "rows" is required', line: 7, column: 5 },
      { pointer: '/output/format', message: 'must be one of: "ndjson", "csv", "json", "parquet"', line: 8, column: 19 },
    ]);
  });

  it('requires the parameters of a distribution', () => {
    const result = valid(`version: 1
sector: cards
tables:
  - name: transactions
    rows: 10
    columns:
      amount: { distribution: lognormal, mu: 3 }
`);
    expect(result.errors).to.deep.equal([
      { pointer: '/tables/0/columns/amount/sigma', message: 'the member "sigma" is required', line: 7, column: 15 },
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
      entry_mode: { distribution: uniform, min: 0, max: 1 }
      status: { weights: { cheque: 1 } }
      transaction_id: { null_rate: 0.5 }
    options: { fraud_rate: 0.9 }
  - name: loans
    rows: 10
  - name: transactions
    rows: 5
`);
    expect(result.errors).to.deep.equal([
      { pointer: '/tables/0/options/fraud_rate', message: 'must be <= 0.5', line: 11, column: 28 },
      {
        pointer: '/tables/0/columns/colour',
        message: 'the table "transactions" has no column "colour"',
        line: 7,
        column: 7,
      },
      {
        pointer: '/tables/0/columns/entry_mode/distribution',
        message: '"entry_mode" is of type enum, which lets a config override weights, null_rate',
        line: 8,
        column: 21,
      },
      {
        pointer: '/tables/0/columns/entry_mode/min',
        message: '"entry_mode" is of type enum, which lets a config override weights, null_rate',
        line: 8,
        column: 44,
      },
      {
        pointer: '/tables/0/columns/entry_mode/max',
        message: '"entry_mode" is of type enum, which lets a config override weights, null_rate',
        line: 8,
        column: 52,
      },
      {
        pointer: '/tables/0/columns/status',
        message: 'weights name values the column cannot take: cheque (values: approved, declined, reversed)',
        line: 9,
        column: 15,
      },
      {
        pointer: '/tables/0/columns/status',
        message: 'weights must give at least one value a weight above 0',
        line: 9,
        column: 15,
      },
      {
        pointer: '/tables/0/columns/transaction_id/null_rate',
        message:
          '"transaction_id" is of type id, which lets a config override nothing ' +
          '(keys and references stay as generated)',
        line: 10,
        column: 25,
      },
      {
        pointer: '/tables/1/name',
        message: 'the sector "cards" has no table "loans"; known: cardholders, cards, merchants, transactions',
        line: 12,
        column: 11,
      },
      { pointer: '/tables/2/name', message: 'the table "transactions" is listed twice', line: 14, column: 11 },
    ]);
    expect(valid('version: 1\nsector: crypto\ntables: [{ name: coins, rows: 1 }]\n').errors).to.deep.equal([
      { pointer: '/sector', message: 'unknown sector "crypto"; known: cards', line: 2, column: 9 },
    ]);
  });

  it("refuses a drawing parameter on a column its pack's generator sets, naming the null rate as all it takes", () => {
    const result = valid(`version: 1
sector: cards
tables:
  - name: transactions
    rows: 10
    columns:
      is_fraud: { rate: 0.3, null_rate: 0.1 }
`);
    expect(result.errors).to.deep.equal([
      {
        pointer: '/tables/0/columns/is_fraud/rate',
        message: `"is_fraud" is set by its pack's generator, which lets a config override null_rate`,
        line: 7,
        column: 19,
      },
    ]);
  });

  it('validates JSON values the same way, without positions', () => {
    const result = validateConfig({ version: 2, sector: 'cards', tables: [] }, fixtureCatalog);
    expect(result.errors).to.deep.equal([
      { pointer: '/version', message: 'must be 1' },
      { pointer: '/tables', message: 'must NOT have fewer than 1 items' },
    ]);
  });

  it('takes an as-of date that is a real calendar date within 2000-01-01 to 2100-12-31, and defaults it', () => {
    const config = (asOf: string) => ({
      version: 1,
      sector: 'cards',
      as_of: asOf,
      tables: [{ name: 'cards', rows: 1 }],
    });
    for (const asOf of ['2025-02-30', '1999-12-31', '2101-01-01', '2025-1-5', '2025-06-30T00:00:00Z']) {
      const pointers = validateConfig(config(asOf), fixtureCatalog).errors.map((error) => error.pointer);
      expect(pointers, asOf).to.deep.equal(['/as_of']);
    }
    expect(validateConfig(config('2024-02-29'), fixtureCatalog).errors).to.deep.equal([]);
    const normal = (asOf?: string) =>
      normaliseConfig({ version: 1, sector: 'cards', ...(asOf ? { as_of: asOf } : {}), tables: [] }).as_of;
    expect([normal('2024-02-29'), normal()]).to.deep.equal(['2024-02-29', '2025-12-31']);
  });

  it('normalises defaults and estimates credits per table with the price rule', () => {
    const config: GenerationConfig = {
      version: 1,
      sector: 'cards',
      tables: [
        { name: 'transactions', rows: 1500 },
        { name: 'cardholders', rows: 1 },
      ],
    };
    expect(normaliseConfig(config)).to.deep.equal({
      version: 1,
      sector: 'cards',
      locale: 'en_GB',
      as_of: '2025-12-31',
      tables: [
        { name: 'transactions', rows: 1500, options: {} },
        { name: 'cardholders', rows: 1, options: {} },
      ],
      output: { format: 'ndjson', compression: 'none', referenced_tables: 'include', report: true },
    });
    const listedOnly: GenerationConfig = { ...config, output: { referenced_tables: 'omit' } };
    expect(estimateConfig(listedOnly, fixtureCatalog)).to.deep.equal({
      rows: 1501,
      credits: 4,
      tables: [
        { name: 'transactions', rows: 1500, credits_per_1000_rows: 2, credits: 3 },
        { name: 'cardholders', rows: 1, credits_per_1000_rows: 1, credits: 1 },
      ],
    });
  });

  it('prices the referenced tables a config delivers without listing them, sized as the engine sizes them', () => {
    const config: GenerationConfig = { version: 1, sector: 'cards', tables: [{ name: 'transactions', rows: 1500 }] };
    const referenced = fixtureCatalog.referencedTables(config);
    expect(referenced.map((table) => table.name)).to.deep.equal(['cards', 'merchants', 'cardholders']);
    const estimate = estimateConfig(config, fixtureCatalog);
    expect(estimate.tables.slice(1)).to.deep.equal(
      referenced.map(({ name, rows }) => ({ name, rows, credits_per_1000_rows: 1, credits: Math.ceil(rows / 1000) })),
    );
    expect(estimate.credits).to.equal(3 + referenced.reduce((sum, table) => sum + Math.ceil(table.rows / 1000), 0));
    // Every reference has a target: each parent has at least a row, fewer than its children.
    for (const table of referenced) expect(table.rows).to.be.within(1, 1500);
  });
});
