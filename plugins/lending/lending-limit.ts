import type { LoanProduct } from './products.js';

/**
 * The most a borrower's annual income allows on a product: the loan-to-income limit, and the amount whose level
 * payment at `annualRate` over `termMonths` takes the product's share of monthly income (debt service to income).
 */
export function lendingLimit(
  product: LoanProduct,
  annualIncome: number,
  annualRate: number,
  termMonths: number,
): number {
  const monthlyRate = annualRate / 12;
  const payment = (product.max_debt_service_to_income * annualIncome) / 12;
  const affordable =
    monthlyRate === 0 ? payment * termMonths : (payment * (1 - (1 + monthlyRate) ** -termMonths)) / monthlyRate;
  return Math.min(product.max_loan_to_income * annualIncome, affordable);
}
