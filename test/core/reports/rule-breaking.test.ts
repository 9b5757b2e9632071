import { expect } from 'chai';
import { fileURLToPath } from 'node:url';
import { loadPacks } from '../../../core/packs/loader.js';
import { GenerationPool } from '../../../core/generation/pool.js';
import { ReportCollector } from '../../../core/reports/report-collector.js';
import type { DatasetReport, TableReport } from '../../../core/reports/report.js';
import { rowOfKey, unfmix32 } from '../../../core/reports/validity/reference-keys.js';
import { fmix32 } from '../../../core/generation/random/prng.js';
import { rowKey } from '../../../core/generation/types/identifiers.js';

const RULE_BREAKING_PACK = fileURLToPath(new URL('../../support/packs/rule-breaking/', import.meta.url));
const ROWS = 2_000;

describe('a pack that breaks every kind of rule: the report names each one', function () {
  this.timeout(60_000);
  let pool: GenerationPool;
  let report: DatasetReport;
  let entries: TableReport;

  before(async () => {
    pool = new GenerationPool(await loadPacks({ builtinDir: '/nonexistent', extra: [RULE_BREAKING_PACK] }), {
      size: 2,
    });
    const plan = await pool.plan({
      sector: 'rulebreaking',
      seed: 3,
      tables: [
        {
          name: 'entries',
          rows: ROWS,
          columns: {
            kind: { weights: { a: 1, b: 1 } },
            amount: { distribution: 'lognormal', mu: 3, sigma: 1 },
          },
        },
      ],
    });
    const collector = new ReportCollector(plan);
    for (const { name } of plan.tables)
      await pool.bytes(plan, name, { format: 'ndjson', statistics: collector.statisticsFor(name) });
    report = collector.report();
    entries = report.tables.find((table) => table.name === 'entries')!;
  });
  after(() => pool.close());

  const finding = (rule: string) => entries.findings.find((candidate) => candidate.rule === rule);

  for (const [rule, column, value] of [
    ['iban-iso-13616', 'iban', 'GB00WEST12345698765432'],
    ['bic-iso-9362', 'bic', 'west1234'],
    ['pan-luhn', 'pan', '4111111111111112'],
    ['pan-network-range', 'pan_range', '9111111111111110'],
    ['isin-iso-6166', 'isin', 'US0378331006'],
    ['currency-iso-4217', 'currency', 'XQQ'],
    ['mcc-iso-18245', 'mcc', '0000'],
    ['amount-currency-unknown', 'amount', 'XQQ'],
    ['reference-orphan', 'other_owner', 'own_00000000deadbeef'],
  ] as const)
    it(`names ${rule} in ${column}, one row in ten, with the first such row`, () => {
      expect(finding(rule), rule).to.deep.include({
        column,
        count: ROWS / 10,
        checked: ROWS,
        example: { row: 3, value },
      });
    });

  it('names a broken invariant with its row, and one that throws with why', () => {
    const steps = finding('steps-of-one')!;
    expect(steps).to.include({ column: '', check: 'invariant' });
    // A broken row that starts its owner's run has no row before it to break the rule against.
    expect(steps.count).to.be.within(ROWS / 10 - 50, ROWS / 10 + 1);
    expect(steps.example.value).to.match(/^\{"row":\{.*"previous":\{/);
    expect(finding('never-throws')).to.deep.include({
      count: 1,
      example: { row: 3, value: 'threw: step -1 is unreadable' },
    });
  });

  it('fails the configured shares and distribution its generator ignores, and passes what holds', () => {
    const failed = entries.targets
      .filter((target) => !target.pass)
      .map((target) => `${target.column}.${target.target}`);
    expect(failed).to.have.members([
      'flagged.flag_rate',
      'kind.weights.a',
      'kind.weights.b',
      'amount.median',
      'amount.sigma',
    ]);
    expect(entries.targets.find((target) => target.target === 'flag_rate')).to.deep.include({
      configured: 0.4,
      achieved: 0,
    });
  });

  it('scores the table and the dataset below 100, by the documented rule', () => {
    expect(entries.score).to.be.below(100);
    expect(entries.score).to.be.above(0);
    const owners = report.tables.find((table) => table.name === 'owners')!;
    expect(owners.score).to.equal(100);
    const weighted = (entries.score * entries.rows + owners.score * owners.rows) / (entries.rows + owners.rows);
    expect(report.score).to.be.closeTo(weighted, 0.01);
  });

  it('finds the row of a written key by inverting the key scramble', () => {
    for (const value of [0, 1, 0xdeadbeef, 0xffffffff]) expect(unfmix32(fmix32(value))).to.equal(value >>> 0);
    expect(rowOfKey(rowKey('own', 12345, 41), 'own', 12345, 50)).to.equal(41);
    expect(rowOfKey(rowKey('own', 12345, 51), 'own', 12345, 50)).to.equal(-1);
    expect(rowOfKey(rowKey('own', 12345, 41), 'own', 54321, 50)).to.equal(-1);
  });
});
