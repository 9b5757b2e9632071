import { defineProblem, problem, type ProblemError } from '../problems.js';

/** The specification's 402, exactly: slug, title, and the two integer members. */
export const InsufficientCredits = defineProblem({
  slug: 'insufficient-credits',
  title: 'Insufficient Credits',
  status: 402,
  description:
    'The request needs more credits than the account has available; `credits_required` and `credits_available` give the counts. Nothing was charged. Buy credits (POST /v1/billing/credits), upgrade, or ask for less.',
});

export const CreditReferenceReused = defineProblem({
  slug: 'credit-reference-reused',
  title: 'Conflict',
  status: 409,
  description: 'A credit movement with this reference already exists with other amounts; a reference names one movement.',
});

export const CreditReferenceUnknown = defineProblem({
  slug: 'credit-reference-unknown',
  title: 'Not Found',
  status: 404,
  description: 'No debit or reservation with this reference exists on the account.',
});

export const ReservationClosed = defineProblem({
  slug: 'reservation-closed',
  title: 'Conflict',
  status: 409,
  description: 'The reservation was released already and cannot be settled.',
});

export function insufficientCredits(required: number, available: number): ProblemError {
  return problem(
    InsufficientCredits,
    `This request needs ${required} ${required === 1 ? 'credit' : 'credits'}; the account has ${available} available.`,
    { credits_required: required, credits_available: available },
  );
}
