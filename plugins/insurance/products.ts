/**
 * The insurance products the pack writes, apart from the code that draws from them. Amounts are in
 * euro terms (log-normal: median e^mu) and scaled to the policy's currency. Claim severity is the body
 * of a log-normal spliced with a Pareto tail above `tail_from` (a share of claims set by a table option),
 * capped at the sum insured; life claims pay the sum insured. A policy's premium is its expected claims cost
 * (frequency × expected payment per claim) over the product's target loss ratio.
 */
export interface InsuranceProduct {
  product: string;
  weight: number;
  sum_insured: { mu: number; sigma: number };
  /**
   * The share of premium the insurer expects to pay back in claims; the rest covers costs and margin. Typical
   * targets run from 0.55 (travel, with its high acquisition costs) to 0.8 (health).
   */
  target_loss_ratio: number;
  /**
   * Spread (log-normal sigma) of premiums around the expected cost: rating factors the pack does not model
   * (age, postcode, no-claims discount). The spread has mean one, so it leaves the loss ratio where it is.
   */
  premium_spread: number;
  deductible: readonly number[];
  /** The perils a claim on this product is for, with their weights. */
  perils: Readonly<Record<string, number>>;
  severity: { mu: number; sigma: number; tail_from: number } | 'sum_insured';
  /** Mean days between a loss and its report. */
  reporting_delay_days: number;
  /** Mean days between a report and its settlement. */
  settlement_days: number;
  /** Claims per policy-year on average (the mean of the negative binomial a policy's count is drawn from). */
  claim_frequency: number;
  /** Premium instalments a year (1 annual, 2, 4 quarterly, 12 monthly), with their weights. */
  instalments: Readonly<Record<string, number>>;
}

export const INSURANCE_PRODUCTS: readonly InsuranceProduct[] = [
  {
    product: 'motor',
    weight: 38,
    sum_insured: { mu: 9.8, sigma: 0.5 },
    target_loss_ratio: 0.72,
    premium_spread: 0.35,
    deductible: [0, 100, 250, 500],
    perils: { collision: 48, windscreen: 20, theft: 8, third_party_injury: 10, third_party_property: 10, fire: 4 },
    severity: { mu: 7.3, sigma: 1.0, tail_from: 12_000 },
    reporting_delay_days: 4,
    settlement_days: 45,
    claim_frequency: 0.12,
    instalments: { 1: 45, 12: 55 },
  },
  {
    product: 'home',
    weight: 30,
    sum_insured: { mu: 12.6, sigma: 0.45 },
    target_loss_ratio: 0.6,
    premium_spread: 0.3,
    deductible: [100, 250, 500, 1000],
    perils: { water_damage: 34, theft: 14, storm: 18, fire: 6, accidental_damage: 22, subsidence: 6 },
    severity: { mu: 7.6, sigma: 1.1, tail_from: 25_000 },
    reporting_delay_days: 9,
    settlement_days: 70,
    claim_frequency: 0.08,
    instalments: { 1: 50, 12: 50 },
  },
  {
    product: 'travel',
    weight: 12,
    sum_insured: { mu: 9.2, sigma: 0.3 },
    target_loss_ratio: 0.55,
    premium_spread: 0.25,
    deductible: [0, 50, 100],
    perils: { medical: 40, cancellation: 35, baggage: 18, delay: 7 },
    severity: { mu: 6.0, sigma: 1.0, tail_from: 5_000 },
    reporting_delay_days: 18,
    settlement_days: 30,
    claim_frequency: 0.06,
    instalments: { 1: 100 },
  },
  {
    product: 'health',
    weight: 12,
    sum_insured: { mu: 11.5, sigma: 0.4 },
    target_loss_ratio: 0.8,
    premium_spread: 0.3,
    deductible: [0, 150, 500],
    perils: { outpatient: 55, inpatient: 25, dental: 15, maternity: 5 },
    severity: { mu: 6.2, sigma: 1.2, tail_from: 8_000 },
    reporting_delay_days: 14,
    settlement_days: 25,
    claim_frequency: 0.9,
    instalments: { 1: 20, 4: 15, 12: 65 },
  },
  {
    product: 'life',
    weight: 8,
    sum_insured: { mu: 12.2, sigma: 0.6 },
    target_loss_ratio: 0.65,
    premium_spread: 0.35,
    deductible: [0],
    perils: { death: 92, terminal_illness: 8 },
    severity: 'sum_insured',
    reporting_delay_days: 30,
    settlement_days: 60,
    claim_frequency: 0.004,
    instalments: { 1: 15, 2: 5, 4: 10, 12: 70 },
  },
];

export const PERILS = [...new Set(INSURANCE_PRODUCTS.flatMap((p) => Object.keys(p.perils)))];

/** Policyholders' countries and their share of the book. */
export const POLICYHOLDER_COUNTRIES = { GB: 30, DE: 20, FR: 16, ES: 10, IT: 10, NL: 8, IE: 3, PL: 3 } as const;

/** Units of each currency that buy what one euro buys. */
export const PRICE_LEVEL: Readonly<Record<string, number>> = { EUR: 1, GBP: 0.86, PLN: 4.3 };

/**
 * What the claims table draws by default (its options' defaults), which is also what pricing assumes: a premium
 * is set before the year's claims are known, so a config that makes claims heavier moves the loss ratio.
 */
export const CLAIM_ASSUMPTIONS = { tail_share: 0.05, tail_alpha: 1.6, rejection_rate: 0.08 } as const;
