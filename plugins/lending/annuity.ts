/**
 * The annuity (French amortisation) formula in integer minor units: a level payment
 *   A = P · r / (1 − (1 + r)^−n)
 * rounded to the currency's minor units; each instalment pays the interest on the outstanding balance
 * (rounded) and the rest of A off the principal; the last instalment repays whatever principal remains,
 * so the principals sum to P exactly and the payments to P plus the interest.
 */
export function levelPayment(principal: number, monthlyRate: number, instalments: number): number {
  if (monthlyRate === 0) return Math.ceil(principal / instalments);
  return Math.round((principal * monthlyRate) / (1 - (1 + monthlyRate) ** -instalments));
}

export interface Instalment {
  interest: number;
  principal: number;
  payment: number;
}

export function nextInstalment(balance: number, payment: number, monthlyRate: number, last: boolean): Instalment {
  const interest = Math.round(balance * monthlyRate);
  const principal = last ? balance : Math.min(balance, payment - interest);
  return { interest, principal, payment: principal + interest };
}
