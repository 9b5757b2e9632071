/**
 * The loan products the lending pack writes, kept apart from the code that draws from them: their share
 * of new lending, principal (log-normal, in euro terms: median e^mu), the nominal annual rate priced from the
 * borrower's probability of default, and the limits income puts on the amount lent.
 */
export interface LoanProduct {
  product: string;
  weight: number;
  mu: number;
  sigma: number;
  min_principal: number;
  max_principal: number;
  /** The rate of a borrower who never defaults: funding, costs and margin. */
  base_rate: number;
  /** The spread per unit of probability of default: a borrower with a PD of 0.1 pays base_rate + risk_spread / 10. */
  risk_spread: number;
  /** The highest rate the lender charges, however risky the borrower (a usury cap, or the lender's appetite). */
  max_rate: number;
  /** The most the loan may be as a multiple of the borrower's annual income. */
  max_loan_to_income: number;
  /** The most the loan's monthly payment may take of the borrower's monthly income. */
  max_debt_service_to_income: number;
  purposes: readonly string[];
  /** Terms in months, with their weights: the number of monthly instalments of a loan's schedule. */
  terms: Readonly<Record<string, number>>;
}

export const LOAN_PRODUCTS: readonly LoanProduct[] = [
  {
    product: 'personal',
    weight: 42,
    mu: 9.0,
    sigma: 0.7,
    min_principal: 1_000,
    max_principal: 75_000,
    base_rate: 0.059,
    risk_spread: 0.6,
    max_rate: 0.36,
    max_loan_to_income: 1,
    max_debt_service_to_income: 0.25,
    purposes: ['debt_consolidation', 'home_improvement', 'wedding', 'medical', 'holiday', 'other'],
    terms: { 12: 10, 24: 22, 36: 30, 48: 18, 60: 20 },
  },
  {
    product: 'auto',
    weight: 25,
    mu: 9.95,
    sigma: 0.45,
    min_principal: 4_000,
    max_principal: 120_000,
    base_rate: 0.039,
    risk_spread: 0.4,
    max_rate: 0.25,
    max_loan_to_income: 1.2,
    max_debt_service_to_income: 0.2,
    purposes: ['new_car', 'used_car'],
    terms: { 24: 10, 36: 22, 48: 25, 60: 30, 72: 13 },
  },
  {
    product: 'mortgage',
    weight: 18,
    mu: 12.3,
    sigma: 0.5,
    min_principal: 40_000,
    max_principal: 2_000_000,
    base_rate: 0.032,
    risk_spread: 0.15,
    max_rate: 0.12,
    max_loan_to_income: 4.5,
    max_debt_service_to_income: 0.35,
    purposes: ['house_purchase', 'remortgage', 'buy_to_let'],
    terms: { 120: 6, 180: 14, 240: 22, 300: 30, 360: 28 },
  },
  {
    product: 'small_business',
    weight: 15,
    mu: 10.9,
    sigma: 0.9,
    min_principal: 5_000,
    max_principal: 1_500_000,
    base_rate: 0.052,
    risk_spread: 0.5,
    max_rate: 0.3,
    max_loan_to_income: 3,
    max_debt_service_to_income: 0.4,
    purposes: ['working_capital', 'equipment', 'expansion', 'refinancing'],
    terms: { 12: 15, 24: 20, 36: 25, 60: 25, 84: 10, 120: 5 },
  },
];

/** Borrowers' countries and their share of the book; their currency is their country's. */
export const BORROWER_COUNTRIES = { GB: 26, DE: 18, FR: 15, ES: 10, IT: 9, NL: 7, US: 8, PL: 4, IE: 3 } as const;

/** Units of each local currency that buy what one euro buys, so that principals and incomes look local. */
export const PRICE_LEVEL: Readonly<Record<string, number>> = { EUR: 1, GBP: 0.86, USD: 1.08, PLN: 4.3 };

/** Credit scores on the common 300–850 scale: the worst and the best. */
export const SCORE_RANGE = [300, 850] as const;

/** Borrowers' credit scores: normal, clamped to the range (the credit_score column's distribution). */
export const CREDIT_SCORE = { mean: 690, sd: 75 } as const;

/**
 * Points of score that halve the odds of default, as scorecards are scaled: the slope of the logistic PD. At 50,
 * the worst fifth of borrowers defaults many times as often as the best fifth (about 17 times at a 3 % rate).
 */
export const SCORE_POINTS_TO_DOUBLE_ODDS = 50;

/**
 * The portfolio default rate the lender prices for: its model's PD of a score. Pricing does not see the
 * schedule's `default_rate` option, which says how the book actually turns out.
 */
export const PRICING_DEFAULT_RATE = 0.03;
