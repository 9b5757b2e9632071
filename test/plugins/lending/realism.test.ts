import { expect } from 'chai';
import pack from '../../../plugins/lending/index.js';
import { LOAN_PRODUCTS } from '../../../plugins/lending/products.js';
import { generateTables, groupBy, type Rows } from '../support/rows.js';

const SEEDS = [1, 2, 3];
const productByName = new Map(LOAN_PRODUCTS.map((p) => [p.product, p]));

/** The loans split in fifths by their borrower's credit score, worst first. */
function quintiles(loans: Rows, scoreOf: (loan: Rows[number]) => number): Rows[] {
  const sorted = [...loans].sort((a, b) => scoreOf(a) - scoreOf(b));
  const fifth = Math.ceil(sorted.length / 5);
  return [0, 1, 2, 3, 4].map((i) => sorted.slice(i * fifth, (i + 1) * fifth));
}

describe('lending pack: realism', () => {
  it('defaults at the configured rate over the book, far more often in worse score fifths, and prices the risk', function () {
    this.timeout(60_000);
    // Personal loans only (a few dozen instalments each), so that 6,000 whole schedules stay quick to generate.
    for (const seed of SEEDS) {
      const {
        borrowers,
        loans,
        repayment_schedule: schedule,
      } = generateTables(pack, {
        seed,
        tables: [
          { name: 'borrowers', rows: 4000 },
          { name: 'loans', rows: 6000, columns: { product: { weights: { personal: 1 } } } },
          { name: 'repayment_schedule', rows: 1_000_000, options: { default_rate: 0.1 } },
        ],
      });
      const scoreOf = new Map(borrowers.map((b) => [b.borrower_id, Number(b.credit_score)]));
      const defaulted = new Set(
        [...groupBy(schedule, 'loan_id')]
          .filter(([, rows]) => rows.some((row) => row.status === 'defaulted'))
          .map(([loanId]) => loanId),
      );
      const rate = (part: Rows) => part.filter((loan) => defaulted.has(loan.loan_id)).length / part.length;
      const meanRate = (part: Rows) => part.reduce((sum, loan) => sum + Number(loan.annual_rate), 0) / part.length;
      // ~600 defaults: one standard deviation is ~4 % of the rate, so +-20 % relative is about five.
      expect(rate(loans), `seed ${seed}: portfolio default rate`).to.be.within(0.08, 0.12);
      const fifths = quintiles(loans, (loan) => scoreOf.get(loan.borrower_id)!);
      const rates = fifths.map(rate);
      // Expected about 25 %, 12 %, 7 %, 4 %, 2 % (1,200 loans a fifth): each step is three standard deviations.
      for (let i = 1; i < 5; i++)
        expect(rates[i], `seed ${seed}: default rates by score fifth, worst first: ${rates.join(', ')}`).to.be.below(
          rates[i - 1],
        );
      expect(rates[0] / rates[4], `seed ${seed}: worst fifth over best`).to.be.at.least(5);
      const prices = fifths.map(meanRate);
      for (let i = 1; i < 5; i++)
        expect(prices[i], `seed ${seed}: mean rate by score fifth, worst first: ${prices.join(', ')}`).to.be.below(
          prices[i - 1],
        );
    }
  });

  it('defaults at about the default option, 3 %, too: the intercept is calibrated per rate', function () {
    this.timeout(60_000);
    for (const seed of SEEDS) {
      const { repayment_schedule: schedule } = generateTables(pack, {
        seed,
        tables: [
          { name: 'loans', rows: 8000, columns: { product: { weights: { personal: 1 } } } },
          { name: 'repayment_schedule', rows: 1_000_000 },
        ],
      });
      const runs = [...groupBy(schedule, 'loan_id').values()];
      const share = runs.filter((rows) => rows.some((row) => row.status === 'defaulted')).length / runs.length;
      // ~240 defaults: one standard deviation is ~6.5 % of the rate, so +-20 % relative is about three.
      expect(share, `seed ${seed}`).to.be.closeTo(0.03, 0.03 * 0.2);
    }
  });

  it("lends within each product's loan-to-income and debt-service-to-income limits, whatever the product", () => {
    for (const seed of SEEDS) {
      const { borrowers, loans } = generateTables(pack, {
        seed,
        tables: [
          { name: 'borrowers', rows: 5000 },
          { name: 'loans', rows: 20_000 },
        ],
      });
      const incomeOf = new Map(borrowers.map((b) => [b.borrower_id, Number(b.annual_income)]));
      const breaches = loans.filter((loan) => {
        const product = productByName.get(String(loan.product))!;
        const income = incomeOf.get(loan.borrower_id)!;
        const principal = Number(loan.principal);
        const r = Number(loan.annual_rate) / 12;
        const n = Number(loan.term_months);
        const payment = (principal * r) / (1 - (1 + r) ** -n);
        // A cent of rounding on the income and the payment.
        return (
          principal > product.max_loan_to_income * income + 0.01 ||
          payment > (product.max_debt_service_to_income * income) / 12 + 0.01
        );
      });
      expect(breaches.slice(0, 3), `seed ${seed}: ${breaches.length} loans over a limit`).to.deep.equal([]);
      // The limits bind for many mortgages: their loan-to-income reaches towards 4.5 but not past it.
      const mortgageLti = loans
        .filter((loan) => loan.product === 'mortgage')
        .map((loan) => Number(loan.principal) / incomeOf.get(loan.borrower_id)!);
      expect(Math.max(...mortgageLti), `seed ${seed}`).to.be.within(4, 4.5 + 1e-6);
    }
  });

  for (const asOf of ['2025-12-31', '2021-06-30'])
    it(`records nothing after the as-of date ${asOf}: instalments due later are scheduled, defaults come before it`, () => {
      for (const seed of SEEDS) {
        const {
          borrowers,
          loans,
          repayment_schedule: schedule,
        } = generateTables(pack, {
          seed,
          as_of: asOf,
          tables: [
            { name: 'borrowers', rows: 600 },
            { name: 'loans', rows: 400 },
            { name: 'repayment_schedule', rows: 1_000_000, options: { default_rate: 0.3, delinquency_rate: 0.3 } },
          ],
        });
        const adultBy = `${Number(asOf.slice(0, 4)) - 18}${asOf.slice(4)}`;
        expect(borrowers.filter((b) => String(b.date_of_birth) > adultBy)).to.deep.equal([]);
        expect(loans.filter((loan) => String(loan.origination_date) > asOf)).to.deep.equal([]);
        const wrong = schedule.filter((row) =>
          String(row.due_date) > asOf
            ? row.status !== 'scheduled' && row.status !== 'defaulted'
            : row.status === 'scheduled' || (row.paid_on !== null && String(row.paid_on) > asOf),
        );
        expect(wrong.slice(0, 3), `seed ${seed}`).to.deep.equal([]);
        let defaults = 0;
        for (const rows of groupBy(schedule, 'loan_id').values()) {
          const first = rows.findIndex((row) => row.status === 'defaulted');
          if (first < 0) continue;
          defaults++;
          // The default is declared by the as-of date, after three missed instalments, all due by then.
          expect(String(rows[first].due_date) <= asOf, `seed ${seed}: a default after ${asOf}`).to.equal(true);
          expect(rows.slice(first - 3, first).map((row) => row.status)).to.deep.equal(['missed', 'missed', 'missed']);
        }
        expect(defaults, `seed ${seed}: defaults seen`).to.be.greaterThan(20);
        expect(schedule.filter((row) => row.status === 'scheduled').length).to.be.greaterThan(0);
      }
    });
});
