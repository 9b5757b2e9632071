/**
 * The loan products the lending pack writes, kept apart from the code that draws from them: their share
 * of new lending, principal (log-normal, in euro terms: median e^mu), and the nominal annual rate a
 * borrower with the best credit score gets, plus the spread a borrower with the worst one pays on top.
 */
export interface LoanProduct {
  product: string;
  weight: number;
  mu: number;
  sigma: number;
  min_principal: number;
  max_principal: number;
  base_rate: number;
  risk_spread: number;
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
    risk_spread: 0.16,
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
    risk_spread: 0.09,
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
    risk_spread: 0.035,
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
    risk_spread: 0.11,
    purposes: ['working_capital', 'equipment', 'expansion', 'refinancing'],
    terms: { 12: 15, 24: 20, 36: 25, 60: 25, 84: 10, 120: 5 },
  },
];

/** Borrowers' countries and their share of the book; their currency is their country's. */
export const BORROWER_COUNTRIES = { GB: 26, DE: 18, FR: 15, ES: 10, IT: 9, NL: 7, US: 8, PL: 4, IE: 3 } as const;

/** Units of each local currency that buy what one euro buys, so that principals and incomes look local. */
export const PRICE_LEVEL: Readonly<Record<string, number>> = { EUR: 1, GBP: 0.86, USD: 1.08, PLN: 4.3 };

/** Credit scores on the common 300–850 scale: the best and the worst. */
export const SCORE_RANGE = [300, 850] as const;
