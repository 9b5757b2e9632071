import { expect } from 'chai';
import pack from '../../../plugins/insurance/index.js';
import { INSURANCE_PRODUCTS, PRICE_LEVEL } from '../../../plugins/insurance/products.js';
import { generateTables, type Rows } from '../support/rows.js';

const SEEDS = [1, 2, 3];
/** Four times the priced claim frequency, so that a quarter of the policies show as many claims. */
const FREQUENCY_FACTOR = 4;
/** Policies per product: enough for ~1,400 claims or more (life: ~190, each its whole sum insured). */
const POLICIES: Record<string, number> = { motor: 4000, home: 6000, travel: 6000, health: 1500, life: 12_000 };

/** A column's total in euro terms (the policies of a product come in several currencies). */
const euros = (rows: Rows, column: string) =>
  rows.reduce((sum, row) => sum + Number(row[column]) / (PRICE_LEVEL[String(row.currency)] ?? 1), 0);

describe('insurance pack: realism', () => {
  it('prices each product to its target loss ratio: claims paid over premiums earned is plausible per product, not only in total', function () {
    this.timeout(120_000);
    for (const product of INSURANCE_PRODUCTS)
      for (const seed of SEEDS) {
        // An as-of date years after the last policy ends: every premium earned, every claim reported and decided.
        const { policies, claims } = generateTables(pack, {
          seed,
          as_of: '2030-12-31',
          tables: [
            {
              name: 'policies',
              rows: POLICIES[product.product],
              columns: { product: { weights: { [product.product]: 1 } } },
            },
            { name: 'claims', rows: 10_000_000, options: { frequency_factor: FREQUENCY_FACTOR } },
          ],
        });
        expect(claims.filter((claim) => claim.status === 'open')).to.deep.equal([]);
        const lossRatio = euros(claims, 'paid_amount') / FREQUENCY_FACTOR / euros(policies, 'annual_premium');
        // Heavy tails (home's Pareto, life's whole sums insured) make one standard deviation 5-9 % of the ratio:
        // within 25 % of the target is three or more of them, and [0.4, 1.0] holds with room to spare.
        const at = `${product.product}, seed ${seed}: loss ratio ${lossRatio.toFixed(3)}`;
        expect(lossRatio, at).to.be.within(0.4, 1.0);
        expect(lossRatio, at).to.be.closeTo(product.target_loss_ratio, product.target_loss_ratio * 0.25);
      }
  });

  for (const asOf of ['2025-12-31', '2023-03-31'])
    it(`records nothing after the as-of date ${asOf}: later premiums scheduled, later claims absent or open`, () => {
      for (const seed of SEEDS) {
        const { policyholders, policies, premiums, claims } = generateTables(pack, {
          seed,
          as_of: asOf,
          tables: [
            { name: 'policyholders', rows: 1500 },
            { name: 'policies', rows: 3000 },
            { name: 'premiums', rows: 1_000_000, options: { late_payment_rate: 0.3 } },
            { name: 'claims', rows: 1_000_000, options: { frequency_factor: 5 } },
          ],
        });
        const adultBy = `${Number(asOf.slice(0, 4)) - 18}${asOf.slice(4)}`;
        expect(policyholders.filter((holder) => String(holder.date_of_birth) > adultBy)).to.deep.equal([]);
        expect(policies.filter((policy) => String(policy.start_date) > asOf)).to.deep.equal([]);
        const wrongPremiums = premiums.filter((premium) =>
          String(premium.due_date) > asOf
            ? premium.status !== 'scheduled' || premium.paid_on !== null || premium.days_late !== 0
            : premium.status === 'scheduled' ||
              (premium.status === 'overdue'
                ? premium.paid_on !== null || !(Number(premium.days_late) >= 0)
                : premium.paid_on === null || String(premium.paid_on) > asOf),
        );
        expect(wrongPremiums.slice(0, 3), `seed ${seed}`).to.deep.equal([]);
        expect(premiums.filter((premium) => premium.status === 'scheduled').length).to.be.greaterThan(0);
        const wrongClaims = claims.filter(
          (claim) =>
            String(claim.loss_date) > asOf ||
            String(claim.reported_date) > asOf ||
            (claim.status === 'open'
              ? claim.settled_date !== null || Number(claim.paid_amount) !== 0
              : String(claim.settled_date) > asOf),
        );
        expect(wrongClaims.slice(0, 3), `seed ${seed}`).to.deep.equal([]);
        expect(claims.filter((claim) => claim.status === 'open').length, `seed ${seed}: open claims`).to.be.greaterThan(
          0,
        );
      }
    });
});
