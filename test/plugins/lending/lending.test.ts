import { expect } from 'chai';
import fc from 'fast-check';
import pack from '../../../plugins/lending/index.js';
import { levelPayment, nextInstalment } from '../../../plugins/lending/annuity.js';
import { LOAN_PRODUCTS } from '../../../plugins/lending/products.js';
import { ProblemError } from '../../../core/problems.js';
import { planFor } from '../../core/generation/support.js';
import { helpers } from '../../../core/generation/helpers.js';
import { checkManifest } from '../../../core/packs/manifest.js';
import { checkPack } from '../../../core/packs/test-kit.js';
import { ageOn, generateTables, groupBy, minor, type Rows } from '../support/rows.js';

const digitsOf = (currency: unknown) => helpers.minorUnits(String(currency));
const defaulted = (schedule: Rows) => schedule.some((row) => row.status === 'missed' || row.status === 'defaulted');

describe('lending pack', () => {
  it('passes its manifest', () => {
    expect(checkManifest(pack)).to.deep.equal([]);
  });

  it('passes the pack test kit: default rows plan, types, nulls, keys, references, formats, same bytes with 1 and 4 workers', async function () {
    this.timeout(240_000);
    const report = await checkPack(new URL('../../../plugins/lending/index.ts', import.meta.url), { rows: 800 });
    expect(Object.keys(report.tables)).to.deep.equal(Object.keys(pack.tables));
  });

  it('amortises by the annuity formula: level payments, principals summing to the principal, the last absorbing the rounding', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10_000_000_000 }),
        fc.double({ min: 0, max: 0.03, noNaN: true }),
        fc.integer({ min: 1, max: 480 }),
        (principal, rate, n) => {
          const payment = levelPayment(principal, rate, n);
          let balance = principal;
          let paid = 0;
          let interest = 0;
          const irregular: number[] = [];
          for (let k = 0; k < n; k++) {
            const due = nextInstalment(balance, payment, rate, k === n - 1);
            if (due.principal < 0 || (k < n - 1 && due.principal < balance && due.payment !== payment))
              irregular.push(k);
            balance -= due.principal;
            paid += due.payment;
            interest += due.interest;
          }
          expect(irregular).to.deep.equal([]);
          expect(balance).to.equal(0);
          expect(paid).to.equal(principal + interest);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("writes each loan's whole schedule over its term_months, loans in order up to the rows asked: principals = the principal, payments = principal + interest, balances chain to zero", () => {
    fc.assert(
      fc.property(
        fc.nat(),
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 1, max: 3000 }),
        (seed, loanRows, scheduleRows) => {
          // given loans, and a schedule asking for some rows (at most what the loans' terms hold)
          const { loans, repayment_schedule: schedule } = generateTables(pack, {
            seed,
            tables: [
              { name: 'loans', rows: loanRows },
              { name: 'repayment_schedule', rows: scheduleRows },
            ],
          });
          // then the schedule holds exactly the rows asked, or every loan's whole term when that is fewer
          const terms = loans.map((loan) => Number(loan.term_months));
          expect(schedule).to.have.length(
            Math.min(
              scheduleRows,
              terms.reduce((a, b) => a + b, 0),
            ),
          );
          // and the loans come in order, each with its whole schedule but the last, which may stop early
          const runs = [...groupBy(schedule, 'loan_id')];
          expect(runs.map(([loanId]) => loanId)).to.deep.equal(loans.slice(0, runs.length).map((loan) => loan.loan_id));
          runs.forEach(([, instalments], i) => {
            const loan = loans[i];
            const whole = instalments.length === terms[i];
            if (i < runs.length - 1) expect(whole, `loan ${i} has its whole schedule`).to.equal(true);
            const digits = digitsOf(loan.currency);
            let balance = minor(loan.principal, digits);
            const expected = instalments.map((row, position) => {
              const opening = balance;
              balance -= minor(row.principal, digits);
              return [
                position + 1,
                terms[i],
                opening,
                Math.round(opening * (Number(loan.annual_rate) / 12)),
                balance,
                true,
              ];
            });
            const actual = instalments.map((row) => [
              row.instalment_number,
              row.instalments,
              minor(row.opening_balance, digits),
              minor(row.interest, digits),
              minor(row.closing_balance, digits),
              String(row.due_date) > String(loan.origination_date),
            ]);
            // Each instalment's figures, recomputed from the loan; compared in one assertion (chai per cell is slow).
            expect(actual).to.deep.equal(expected);
            if (whole) {
              const sum = (column: string) => instalments.reduce((total, row) => total + minor(row[column], digits), 0);
              expect(sum('principal')).to.equal(minor(loan.principal, digits));
              expect(sum('payment')).to.equal(minor(loan.principal, digits) + sum('interest'));
              expect(balance).to.equal(0);
            }
          });
        },
      ),
      { numRuns: 30 },
    );
  });

  it("draws each loan's term from its product's terms: mortgages for decades, personal loans for a few years", () => {
    const { loans } = generateTables(pack, { seed: 3, tables: [{ name: 'loans', rows: 4000 }] });
    for (const product of LOAN_PRODUCTS) {
      const terms = loans.filter((loan) => loan.product === product.product).map((loan) => String(loan.term_months));
      expect(terms.length, product.product).to.be.greaterThan(200);
      expect(new Set(terms), product.product).to.deep.equal(new Set(Object.keys(product.terms)));
    }
  });

  it('refuses a schedule asking for more rows than its requested loans hold, saying how many they hold', () => {
    const { loans } = generateTables(pack, { seed: 8, tables: [{ name: 'loans', rows: 3 }] });
    const held = loans.reduce((sum, loan) => sum + Number(loan.term_months), 0);
    expect(() =>
      generateTables(pack, {
        seed: 8,
        tables: [
          { name: 'loans', rows: 3 },
          { name: 'repayment_schedule', rows: held },
        ],
      }),
    ).not.to.throw();
    expect(() =>
      planFor(pack, {
        seed: 8,
        tables: [
          { name: 'loans', rows: 3 },
          { name: 'repayment_schedule', rows: held + 1 },
        ],
      }),
    )
      .to.throw(ProblemError, `the 3 rows of its parent table "loans" in this plan hold ${held} in all`)
      .with.property('extensions')
      .that.deep.includes({ table: 'repayment_schedule', rows_available: held });
  });

  it('defaults and pays late at the configured rates, within tolerance', () => {
    const run = (options: Record<string, number>) =>
      generateTables(pack, {
        seed: 11,
        tables: [
          { name: 'loans', rows: 2000 },
          { name: 'repayment_schedule', rows: 48_000, options },
        ],
      }).repayment_schedule;
    const schedule = run({ default_rate: 0.1, delinquency_rate: 0.2 });
    const loans = [...groupBy(schedule, 'loan_id').values()];
    const defaultShare = loans.filter(defaulted).length / loans.length;
    expect(defaultShare).to.be.closeTo(0.1, 0.025);
    const performing = schedule.filter((row) => row.status === 'paid' || row.status === 'paid_late');
    expect(performing.filter((row) => row.status === 'paid_late').length / performing.length).to.be.closeTo(0.2, 0.01);
    const inconsistent = schedule.filter((row) =>
      row.status === 'paid_late'
        ? !(Number(row.days_past_due) >= 1 && Number(row.days_past_due) <= 89) || row.amount_paid !== row.payment
        : row.status === 'paid'
          ? row.days_past_due !== 0 || row.amount_paid !== row.payment
          : row.paid_on !== null || row.amount_paid !== 0,
    );
    expect(inconsistent).to.deep.equal([]);
    const none = run({ default_rate: 0, delinquency_rate: 0 });
    // Instalments due after the as-of date are scheduled, whatever the rates.
    expect(new Set(none.map((row) => row.status))).to.deep.equal(new Set(['paid', 'scheduled']));
  });

  it('misses three instalments before a default, then collects nothing', () => {
    const { repayment_schedule: schedule } = generateTables(pack, {
      seed: 5,
      tables: [{ name: 'repayment_schedule', rows: 20_000, options: { default_rate: 1 } }],
    });
    for (const instalments of groupBy(schedule, 'loan_id').values()) {
      const statuses = instalments.map((row) => row.status).join(',');
      expect(statuses).to.match(/^(paid(_late)?,)*(missed(,missed(,missed(,defaulted)*)?)?)$/);
    }
  });

  it('refuses a rate outside [0, 1] with a problem naming the option', () => {
    expect(() =>
      generateTables(pack, {
        seed: 1,
        tables: [{ name: 'repayment_schedule', rows: 10, options: { default_rate: 1.5 } }],
      }),
    ).to.throw(/default_rate/);
  });

  it('lends only to borrowers who are 18 or older on the day the money is paid out', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 31 }), (seed) => {
        const { borrowers, loans } = generateTables(pack, {
          seed,
          tables: [
            { name: 'borrowers', rows: 1500 },
            { name: 'loans', rows: 3000 },
          ],
        });
        const bornOn = new Map(borrowers.map((borrower) => [borrower.borrower_id, borrower.date_of_birth]));
        for (const loan of loans)
          expect(ageOn(bornOn.get(loan.borrower_id), loan.origination_date), JSON.stringify(loan)).to.be.at.least(18);
      }),
      { numRuns: 5 },
    );
  });
});
