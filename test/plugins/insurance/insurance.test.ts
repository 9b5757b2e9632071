import { expect } from 'chai';
import fc from 'fast-check';
import pack from '../../../plugins/insurance/index.js';
import { INSURANCE_PRODUCTS } from '../../../plugins/insurance/products.js';
import { helpers } from '../../../core/generation/helpers.js';
import { checkManifest } from '../../../core/packs/manifest.js';
import { checkPack } from '../../../core/packs/test-kit.js';
import { generateTables, groupBy, minor } from '../support/rows.js';

const digitsOf = (currency: unknown) => helpers.minorUnits(String(currency));

describe('insurance pack', () => {
  it('passes its manifest', () => {
    expect(checkManifest(pack)).to.deep.equal([]);
  });

  it('passes the pack test kit: types, nulls, keys, references, formats, same bytes with 1 and 4 workers', async function () {
    this.timeout(240_000);
    const report = await checkPack(new URL('../../../plugins/insurance/index.ts', import.meta.url), { rows: 800 });
    expect(Object.keys(report.tables)).to.deep.equal(Object.keys(pack.tables));
  });

  it('puts every claim inside its policy period, reported on or after the loss, settled after the report, paid at most the sum insured less the deductible', () => {
    fc.assert(
      fc.property(fc.nat(), fc.integer({ min: 1, max: 300 }), fc.integer({ min: 1, max: 600 }), (seed, policyRows, claimRows) => {
        const { policies, claims } = generateTables(pack, { seed, tables: [{ name: 'policies', rows: policyRows }, { name: 'claims', rows: claimRows }] });
        expect(claims).to.have.length(claimRows);
        const policyById = new Map(policies.map((p) => [p.policy_id, p]));
        const wrong = claims.filter((claim) => {
          const policy = policyById.get(claim.policy_id)!;
          const digits = digitsOf(policy.currency);
          const net = minor(policy.sum_insured, digits) - minor(policy.deductible, digits);
          const product = INSURANCE_PRODUCTS.find((p) => p.product === policy.product)!;
          return !(
            String(policy.start_date) <= String(claim.loss_date) && String(claim.loss_date) <= String(policy.end_date) &&
            String(claim.loss_date) <= String(claim.reported_date) &&
            (claim.settled_date === null ? claim.status === 'open' : String(claim.reported_date) <= String(claim.settled_date)) &&
            minor(claim.incurred_amount, digits) > 0 && minor(claim.incurred_amount, digits) <= minor(policy.sum_insured, digits) &&
            minor(claim.paid_amount, digits) <= Math.max(0, net) &&
            (claim.status === 'settled' || minor(claim.paid_amount, digits) === 0) &&
            claim.currency === policy.currency &&
            String(claim.peril) in product.perils
          );
        });
        expect(wrong).to.deep.equal([]);
        for (const series of groupBy(claims, 'policy_id').values()) {
          expect(series.map((c) => c.claim_number)).to.deep.equal(series.map((_, i) => i + 1));
          expect(series.map((c) => c.loss_date)).to.deep.equal(series.map((c) => c.loss_date).sort());
        }
      }),
      { numRuns: 40 },
    );
  });

  it('splits each policy\'s premium into instalments that add up to it, due within the policy year', () => {
    fc.assert(
      fc.property(fc.nat(), fc.integer({ min: 1, max: 200 }), fc.integer({ min: 1, max: 2000 }), (seed, policyRows, premiumRows) => {
        const { policies, premiums } = generateTables(pack, { seed, tables: [{ name: 'policies', rows: policyRows }, { name: 'premiums', rows: premiumRows }] });
        const policyById = new Map(policies.map((p) => [p.policy_id, p]));
        for (const [policyId, instalments] of groupBy(premiums, 'policy_id')) {
          const policy = policyById.get(policyId)!;
          const digits = digitsOf(policy.currency);
          expect(instalments.reduce((sum, p) => sum + minor(p.amount, digits), 0)).to.equal(minor(policy.annual_premium, digits));
          expect(instalments.map((p) => [p.instalment_number, p.instalments])).to.deep.equal(instalments.map((_, i) => [i + 1, instalments.length]));
          expect(instalments.filter((p) => !(String(policy.start_date) <= String(p.due_date) && String(p.due_date) <= String(policy.end_date)))).to.deep.equal([]);
        }
      }),
      { numRuns: 40 },
    );
  });

  it('draws heavy-tailed severities: the tail share as configured, and the largest claims carry much of the cost', () => {
    const incurred = (options: Record<string, number>) => {
      const { policies, claims } = generateTables(pack, { seed: 21, tables: [{ name: 'policies', rows: 20_000 }, { name: 'claims', rows: 20_000, options }] });
      const home = new Set(policies.filter((p) => p.product === 'home' && p.currency === 'EUR').map((p) => p.policy_id));
      return claims.filter((c) => home.has(c.policy_id)).map((c) => Number(c.incurred_amount)).sort((a, b) => b - a);
    };
    const losses = incurred({ tail_share: 0.1, tail_alpha: 1.5 });
    const tailFrom = (INSURANCE_PRODUCTS.find((p) => p.product === 'home')!.severity as { tail_from: number }).tail_from;
    expect(losses.filter((loss) => loss >= tailFrom).length / losses.length).to.be.closeTo(0.1, 0.025);
    const total = losses.reduce((a, b) => a + b, 0);
    const top = losses.slice(0, Math.ceil(losses.length * 0.05)).reduce((a, b) => a + b, 0);
    expect(top / total, 'share of the cost in the largest 5% of claims').to.be.greaterThan(0.35);
    expect(incurred({ tail_share: 0 }).filter((loss) => loss >= tailFrom)).to.deep.equal([]);
  });

  it('gives claim counts per policy a mean of claims over policies, over-dispersed like real claim counts', () => {
    const { policies, claims } = generateTables(pack, { seed: 4, tables: [{ name: 'policies', rows: 5000 }, { name: 'claims', rows: 10_000 }] });
    const counts = new Map(policies.map((p) => [p.policy_id, 0]));
    for (const claim of claims) counts.set(claim.policy_id, counts.get(claim.policy_id)! + 1);
    const values = [...counts.values()];
    const mean = values.reduce((a, b) => a + b, 0) / values.length;
    const variance = values.reduce((a, b) => a + (b - mean) ** 2, 0) / (values.length - 1);
    expect(mean).to.equal(2);
    expect(variance / mean).to.be.greaterThan(1);
    expect(values.filter((count) => count === 0).length).to.be.greaterThan(0);
  });
});
