import { expect } from 'chai';
import { ProblemError } from '../../../core/problems.js';
import banking from '../../../plugins/banking/index.js';
import cards from '../../../plugins/cards/index.js';
import { planFor } from './support.js';
import { buildPlan, ratedTables } from '../../../core/generation/plan.js';
import { loadPacks } from '../../../core/packs/loader.js';

function refusal(run: () => unknown): ProblemError {
  try {
    run();
  } catch (error) {
    expect(error).to.be.instanceOf(ProblemError);
    return error as ProblemError;
  }
  return expect.fail('expected a problem');
}

describe('the plan builder', () => {
  it('resolves rows, default options and sizes unrequested parents by the ratio of default rows', () => {
    const plan = planFor(cards, { seed: 7, tables: [{ name: 'transactions', rows: 6000 }] });
    expect(plan.seed).to.equal(7);
    expect(plan.locale).to.equal('en_GB');
    const rows = Object.fromEntries(plan.tables.map((table) => [table.name, [table.rows, table.requested]]));
    // cards: 6000 × 1500 / 60000 = 150; merchants: 6000 × 500 / 60000 = 50; cardholders: 150 × 1000 / 1500 = 100
    expect(rows).to.deep.equal({
      transactions: [6000, true],
      cards: [150, false],
      merchants: [50, false],
      cardholders: [100, false],
    });
    expect(plan.tables[0].options).to.deep.equal({ fraud_rate: 0.002, start_date: '2025-01-01', days: 90 });
  });

  it('keeps a requested parent at its requested size', () => {
    const plan = planFor(cards, {
      seed: 1,
      tables: [
        { name: 'transactions', rows: 100 },
        { name: 'cards', rows: 3 },
      ],
    });
    expect(plan.tables.find((table) => table.name === 'cards')).to.include({ rows: 3, requested: true });
  });

  it('draws a seed when none is given and records it', () => {
    const plan = planFor(cards, { tables: [{ name: 'merchants' }] });
    expect(plan.seed).to.be.a('number');
    expect(plan.tables[0].rows).to.equal(500);
  });

  it('refuses an unknown sector, table, option, option value, locale or row count with problems', async () => {
    const registry = await loadPacks();
    expect(refusal(() => buildPlan(registry, { sector: 'astrology', tables: [{ name: 'x' }] })).type.slug).to.equal(
      'unknown-sector',
    );
    const table = refusal(() => planFor(cards, { tables: [{ name: 'loans' }] }));
    expect(table.type.slug).to.equal('unknown-table');
    expect(table.detail).to.contain('cardholders, cards, merchants, transactions');
    expect(
      refusal(() => planFor(cards, { tables: [{ name: 'transactions', options: { fraud: 0.1 } }] })).detail,
    ).to.contain('no option "fraud"');
    const value = refusal(() => planFor(cards, { tables: [{ name: 'transactions', options: { fraud_rate: 2 } }] }));
    expect(value.type.slug).to.equal('invalid-table-options');
    expect(value.detail).to.contain('fraud_rate').and.to.contain('<= 0.5');
    const farFuture = refusal(() =>
      planFor(cards, { tables: [{ name: 'transactions', options: { start_date: '9999-12-31' } }] }),
    );
    expect(farFuture.type.slug, 'timestamps past year 9999 cannot be written').to.equal('invalid-table-options');
    expect(farFuture.detail).to.contain('start_date').and.to.contain('2100-12-31');
    expect(refusal(() => planFor(cards, { locale: 'xx_XX', tables: [{ name: 'cards' }] })).type.slug).to.equal(
      'unknown-locale',
    );
    expect(refusal(() => planFor(cards, { tables: [{ name: 'cards', rows: -1 }] })).type.slug).to.equal('invalid-plan');
    expect(refusal(() => planFor(cards, { tables: [{ name: 'cards' }, { name: 'cards' }] })).detail).to.contain(
      'named twice',
    );
    expect(
      refusal(() =>
        planFor(cards, {
          tables: [
            { name: 'transactions', rows: 5 },
            { name: 'cards', rows: 0 },
          ],
        }),
      ).detail,
    ).to.contain('has none');
  });

  it('finds no table, option or column by a name every object inherits', () => {
    for (const name of ['constructor', 'toString', '__proto__']) {
      expect(refusal(() => planFor(cards, { tables: [{ name }] })).type.slug, name).to.equal('unknown-table');
      expect(
        refusal(() => planFor(cards, { tables: [{ name: 'transactions', options: JSON.parse(`{"${name}": 1}`) }] }))
          .type.slug,
        name,
      ).to.equal('invalid-table-options');
      expect(
        refusal(() => planFor(cards, { tables: [{ name: 'transactions', columns: JSON.parse(`{"${name}": {}}`) }] }))
          .type.slug,
        name,
      ).to.equal('invalid-column-override');
    }
  });

  it('accepts compatible column overrides and refuses incompatible ones clearly', () => {
    const plan = planFor(cards, {
      seed: 1,
      tables: [
        {
          name: 'transactions',
          rows: 10,
          columns: {
            amount: { distribution: 'pareto', xm: 5, alpha: 2 },
            status: { weights: { approved: 1 } },
            mcc: { null_rate: 0.1 },
          },
        },
      ],
    });
    expect(plan.tables[0].columns.amount).to.deep.equal({ distribution: 'pareto', xm: 5, alpha: 2 });
    const cases: [Record<string, Record<string, unknown>>, string][] = [
      [{ nope: { null_rate: 0.1 } }, 'no such column'],
      [{ transaction_id: { null_rate: 0.1 } }, 'cannot be overridden'],
      [{ mcc: { distribution: 'normal', mean: 1, sd: 1 } }, 'type mcc does not accept "distribution"'],
      [{ amount: { distribution: 'lognormal', mu: 3 } }, "must have required property 'sigma'"],
      [{ status: { weights: { pending: 1 } } }, 'weights name values that do not exist: pending'],
      [{ amount: { null_rate: 2 } }, 'null_rate must be a number from 0 to 1'],
      // Parameters whose draws no number column can hold: refused, rather than written as Infinity or null.
      [{ amount: { distribution: 'lognormal', mu: 1e308, sigma: 1 } }, 'mu must be <= 34.5'],
      [{ amount: { distribution: 'lognormal', mu: 700, sigma: 1 } }, 'mu must be <= 34.5'],
      [{ amount: { distribution: 'lognormal', mu: 3, sigma: 1e300 } }, 'sigma must be <= 10'],
      [{ amount: { distribution: 'normal', mean: 1e300, sd: 1 } }, 'mean must be <= 1000000000000000'],
      [{ amount: { distribution: 'uniform', min: -1e16, max: 5 } }, 'min must be >= -1000000000000000'],
    ];
    for (const [columns, message] of cases) {
      const problem = refusal(() => planFor(cards, { tables: [{ name: 'transactions', rows: 10, columns }] }));
      expect(problem.type.slug).to.equal('invalid-column-override');
      expect(problem.detail).to.contain(message);
    }
  });

  describe('a table at a rate (rows_at_rate)', () => {
    const rowsOf = (plan: { tables: { name: string; rows: number }[] }) =>
      Object.fromEntries(plan.tables.map((table) => [table.name, table.rows]));

    it('has rate × its base ÷ per rows, rounded down once binary fractions are forgiven, at most the rows named', () => {
      // 0.29 × 100,000 ÷ 1,000 is 28.999999999999996 in binary floating point: 29 motifs, not 28.
      const cases: [number, number, number, number][] = [
        [0.29, 100_000, 1000, 29],
        [1.13, 100_000, 1000, 113],
        [4.9, 600, 1000, 2],
        [50, 600, 12, 12],
        [0, 600, 1000, 0],
      ];
      for (const [rate, accounts, rows, expected] of cases) {
        const plan = planFor(banking, {
          tables: [
            { name: 'accounts', rows: accounts },
            { name: 'aml_motifs', rows, options: { per_1000_accounts: rate } },
          ],
        });
        expect(rowsOf(plan).aml_motifs, `${rate} per 1,000 of ${accounts}, at most ${rows}`).to.equal(expected);
      }
    });

    it('keeps the rows named without the option, and never sizes its base from the rows it may have', () => {
      const counted = planFor(banking, {
        tables: [
          { name: 'transactions', rows: 30_000 },
          { name: 'aml_motifs', rows: 5_000 },
        ],
      });
      const rated = planFor(banking, {
        tables: [
          { name: 'transactions', rows: 30_000 },
          { name: 'aml_motifs', rows: 5_000, options: { per_1000_accounts: 10 } },
        ],
      });
      const sizedByTransactions = rowsOf(planFor(banking, { tables: [{ name: 'transactions', rows: 30_000 }] }));
      // 5,000 motifs by count size the accounts to hold them; at a rate, the accounts are the transactions'.
      expect(rowsOf(counted).aml_motifs).to.equal(5_000);
      expect(rowsOf(counted).accounts).to.be.above(sizedByTransactions.accounts);
      expect(rowsOf(rated).accounts).to.equal(sizedByTransactions.accounts);
      expect(rowsOf(rated).aml_motifs).to.equal(Math.floor(sizedByTransactions.accounts / 100));
      const request = {
        sector: 'banking',
        tables: [
          { name: 'transactions', rows: 30_000 },
          { name: 'aml_motifs', rows: 5_000, options: { per_1000_accounts: 10 } },
        ],
      };
      expect(ratedTables({ require: () => banking }, request)).to.deep.equal([
        { name: 'aml_motifs', rows: rowsOf(rated).aml_motifs },
      ]);
      const withoutRate = { ...request, tables: [request.tables[0], { name: 'aml_motifs', rows: 5_000 }] };
      expect(ratedTables({ require: () => banking }, withoutRate)).to.deep.equal([]);
    });

    it('refuses a rate its option schema refuses', () => {
      const problem = refusal(() =>
        planFor(banking, { tables: [{ name: 'aml_motifs', rows: 10, options: { per_1000_accounts: 63 } }] }),
      );
      expect(problem.type.slug).to.equal('invalid-table-options');
    });
  });
});
