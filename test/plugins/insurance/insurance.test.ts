import { expect } from 'chai';
import fc from 'fast-check';
import pack from '../../../plugins/insurance/index.js';
import { INSURANCE_PRODUCTS } from '../../../plugins/insurance/products.js';
import { helpers } from '../../../core/generation/helpers.js';
import { checkManifest } from '../../../core/packs/manifest.js';
import { checkPack } from '../../../core/packs/test-kit.js';
import { ageOn, generateTables, groupBy, minor } from '../support/rows.js';

const digitsOf = (currency: unknown) => helpers.minorUnits(String(currency));

describe('insurance pack', () => {
  it('passes its manifest', () => {
    expect(checkManifest(pack)).to.deep.equal([]);
  });

  it('passes the pack test kit: default rows plan, types, nulls, keys, references, formats, same bytes with 1 and 4 workers', async function () {
    this.timeout(240_000);
    const report = await checkPack(new URL('../../../plugins/insurance/index.ts', import.meta.url), { rows: 800 });
    expect(Object.keys(report.tables)).to.deep.equal(Object.keys(pack.tables));
  });

  it('puts every claim inside its policy period, reported on or after the loss, settled after the report, paid at most the sum insured less the deductible', () => {
    fc.assert(
      fc.property(
        fc.nat(),
        fc.integer({ min: 1, max: 300 }),
        fc.integer({ min: 1, max: 600 }),
        (seed, policyRows, claimRows) => {
          const { policies, claims } = generateTables(pack, {
            seed,
            tables: [
              { name: 'policies', rows: policyRows },
              { name: 'claims', rows: claimRows, options: { frequency_factor: 4 } },
            ],
          });
          expect(claims.length).to.be.at.most(claimRows);
          const policyById = new Map(policies.map((p) => [p.policy_id, p]));
          const wrong = claims.filter((claim) => {
            const policy = policyById.get(claim.policy_id)!;
            const digits = digitsOf(policy.currency);
            const net = minor(policy.sum_insured, digits) - minor(policy.deductible, digits);
            const product = INSURANCE_PRODUCTS.find((p) => p.product === policy.product)!;
            return !(
              String(policy.start_date) <= String(claim.loss_date) &&
              String(claim.loss_date) <= String(policy.end_date) &&
              String(claim.loss_date) <= String(claim.reported_date) &&
              (claim.settled_date === null
                ? claim.status === 'open'
                : String(claim.reported_date) <= String(claim.settled_date)) &&
              minor(claim.incurred_amount, digits) > 0 &&
              minor(claim.incurred_amount, digits) <= minor(policy.sum_insured, digits) &&
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
          // Policies come in order: the claims are those of the first policies.
          const order = new Map(policies.map((p, i) => [p.policy_id, i]));
          const positions = claims.map((c) => order.get(c.policy_id)!);
          expect(positions).to.deep.equal([...positions].sort((a, b) => a - b));
        },
      ),
      { numRuns: 40 },
    );
  });

  it("splits each policy's premium into its premium_instalments, adding up to it and due within the policy year, policies in order up to the rows asked", () => {
    fc.assert(
      fc.property(
        fc.nat(),
        fc.integer({ min: 1, max: 200 }),
        fc.integer({ min: 1, max: 2000 }),
        (seed, policyRows, premiumRows) => {
          const { policies, premiums } = generateTables(pack, {
            seed,
            tables: [
              { name: 'policies', rows: policyRows },
              { name: 'premiums', rows: premiumRows },
            ],
          });
          const counts = policies.map((p) => Number(p.premium_instalments));
          expect(premiums).to.have.length(
            Math.min(
              premiumRows,
              counts.reduce((a, b) => a + b, 0),
            ),
          );
          const runs = [...groupBy(premiums, 'policy_id')];
          expect(runs.map(([policyId]) => policyId)).to.deep.equal(
            policies
              .filter((_, i) => counts[i] > 0)
              .slice(0, runs.length)
              .map((p) => p.policy_id),
          );
          runs.forEach(([policyId, instalments], i) => {
            const policy = policies.find((p) => p.policy_id === policyId)!;
            const digits = digitsOf(policy.currency);
            const whole = instalments.length === Number(policy.premium_instalments);
            if (i < runs.length - 1) expect(whole).to.equal(true);
            if (whole)
              expect(instalments.reduce((sum, p) => sum + minor(p.amount, digits), 0)).to.equal(
                minor(policy.annual_premium, digits),
              );
            expect(instalments.map((p) => [p.instalment_number, p.instalments])).to.deep.equal(
              instalments.map((_, n) => [n + 1, policy.premium_instalments]),
            );
            expect(
              instalments.filter(
                (p) =>
                  !(String(policy.start_date) <= String(p.due_date) && String(p.due_date) <= String(policy.end_date)),
              ),
            ).to.deep.equal([]);
          });
        },
      ),
      { numRuns: 40 },
    );
  });

  it('draws heavy-tailed severities: the tail share as configured, and the largest claims carry much of the cost', function () {
    this.timeout(90_000);
    const incurred = (options: Record<string, number>) => {
      const { policies, claims } = generateTables(pack, {
        seed: 21,
        tables: [
          { name: 'policies', rows: 15_000 },
          { name: 'claims', rows: 100_000, options: { frequency_factor: 8, ...options } },
        ],
      });
      const home = new Set(
        policies.filter((p) => p.product === 'home' && p.currency === 'EUR').map((p) => p.policy_id),
      );
      return claims
        .filter((c) => home.has(c.policy_id))
        .map((c) => Number(c.incurred_amount))
        .sort((a, b) => b - a);
    };
    const losses = incurred({ tail_share: 0.1, tail_alpha: 1.5 });
    const tailFrom = (INSURANCE_PRODUCTS.find((p) => p.product === 'home')!.severity as { tail_from: number })
      .tail_from;
    expect(losses.filter((loss) => loss >= tailFrom).length / losses.length).to.be.closeTo(0.1, 0.025);
    const total = losses.reduce((a, b) => a + b, 0);
    const top = losses.slice(0, Math.ceil(losses.length * 0.05)).reduce((a, b) => a + b, 0);
    expect(top / total, 'share of the cost in the largest 5% of claims').to.be.greaterThan(0.35);
    expect(incurred({ tail_share: 0 }).filter((loss) => loss >= tailFrom)).to.deep.equal([]);
  });

  it("counts each policy's claims by its product's frequency, over-dispersed like real claim counts (negative binomial)", () => {
    // given policies and a claims table asking for more rows than they hold: every policy's claims
    const { policies, claims } = generateTables(pack, {
      seed: 4,
      tables: [
        { name: 'policies', rows: 20_000 },
        { name: 'claims', rows: 1_000_000, options: { frequency_factor: 2 } },
      ],
    });
    const counts = new Map(policies.map((p) => [p.policy_id, 0]));
    for (const claim of claims) counts.set(claim.policy_id, counts.get(claim.policy_id)! + 1);
    for (const product of ['motor', 'home', 'health']) {
      const values = policies.filter((p) => p.product === product).map((p) => counts.get(p.policy_id)!);
      const mean = values.reduce((a, b) => a + b, 0) / values.length;
      const variance = values.reduce((a, b) => a + (b - mean) ** 2, 0) / (values.length - 1);
      const expected = 2 * INSURANCE_PRODUCTS.find((p) => p.product === product)!.claim_frequency;
      // then the mean is the product's frequency (times the factor), and the variance exceeds it (over-dispersion)
      expect(mean, product).to.be.closeTo(expected, expected * 0.1);
      expect(variance / mean, product).to.be.greaterThan(1 + expected / 1.5 / 2);
      expect(values.filter((count) => count === 0).length, product).to.be.greaterThan(0);
    }
  });

  it("starts every policy on or after its policyholder's 18th birthday", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 31 }), (seed) => {
        const { policyholders, policies } = generateTables(pack, {
          seed,
          tables: [
            { name: 'policyholders', rows: 1500 },
            { name: 'policies', rows: 3000 },
          ],
        });
        const bornOn = new Map(policyholders.map((holder) => [holder.policyholder_id, holder.date_of_birth]));
        for (const policy of policies)
          expect(ageOn(bornOn.get(policy.policyholder_id), policy.start_date), JSON.stringify(policy)).to.be.at.least(
            18,
          );
      }),
      { numRuns: 5 },
    );
  });
});
