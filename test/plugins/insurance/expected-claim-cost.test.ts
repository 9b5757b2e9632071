import { expect } from 'chai';
import { Rng } from '../../../core/packs/sdk.js';
import { expectedClaimCost } from '../../../plugins/insurance/expected-claim-cost.js';
import { CLAIM_ASSUMPTIONS, INSURANCE_PRODUCTS, type InsuranceProduct } from '../../../plugins/insurance/products.js';

/** The payment on one claim drawn as the claims table draws it: spliced severity, capped, less the deductible. */
function simulatedPayment(rng: Rng, product: InsuranceProduct, sumInsured: number, deductible: number): number {
  if (product.severity === 'sum_insured') return Math.max(0, sumInsured - deductible);
  const { mu, sigma, tail_from: tail } = product.severity;
  let loss: number;
  if (rng.next() < CLAIM_ASSUMPTIONS.tail_share) loss = tail / (1 - rng.next()) ** (1 / CLAIM_ASSUMPTIONS.tail_alpha);
  else
    do loss = Math.exp(rng.normal(mu, sigma));
    while (loss >= tail);
  return Math.max(0, Math.min(sumInsured, loss) - deductible);
}

describe("insurance pack: a policy's expected claims cost", () => {
  it('matches a simulation of the claims table draws, for every product, at small and large sums insured and deductibles', () => {
    for (const product of INSURANCE_PRODUCTS)
      for (const sumInsured of [Math.exp(product.sum_insured.mu - 1), Math.exp(product.sum_insured.mu + 1)])
        for (const deductible of [0, 500]) {
          const rng = new Rng(11, product.product.length);
          const draws = 200_000;
          let total = 0;
          for (let i = 0; i < draws; i++) total += simulatedPayment(rng, product, sumInsured, deductible);
          const simulated = product.claim_frequency * (1 - CLAIM_ASSUMPTIONS.rejection_rate) * (total / draws);
          // 200,000 draws of a capped severity: the simulated mean is within a few per cent of the closed form.
          expect(
            expectedClaimCost(product, sumInsured, deductible),
            `${product.product}, ${sumInsured}, ${deductible}`,
          ).to.be.closeTo(simulated, simulated * 0.04);
        }
  });

  it('is zero when the deductible takes the whole sum insured, and rises with the sum insured', () => {
    const home = INSURANCE_PRODUCTS.find((p) => p.product === 'home')!;
    expect(expectedClaimCost(home, 1000, 1000)).to.equal(0);
    expect(expectedClaimCost(home, 500_000, 250)).to.be.greaterThan(expectedClaimCost(home, 100_000, 250));
  });
});
