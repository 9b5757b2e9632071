import { defineProblem, problem, type ProblemError } from '../problems.js';

/** The specification's 402, exactly: slug, title, and the two integer members. */
export const InsufficientCredits = defineProblem({
  slug: 'insufficient-credits',
  title: 'Insufficient Credits',
  status: 402,
  description:
    'The request needs more credits than the account has available; `credits_required` and `credits_available` ' +
    'give the counts. Nothing was charged. Buy credits (POST /v1/billing/credits), upgrade, or ask for less.',
});

export const CreditReferenceReused = defineProblem({
  slug: 'credit-reference-reused',
  title: 'Conflict',
  status: 409,
  description:
    'A credit movement with this reference already exists with other amounts; a reference names one movement.',
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

/** A job over its tier's concurrent-job limit: the credits slice refuses its reservation. */
export const TooManyJobs = defineProblem({
  slug: 'concurrent-job-limit',
  title: 'Too Many Requests',
  status: 429,
  description:
    'The account already runs as many jobs as its tier allows (`limit`); ' +
    'retry once one finishes or cancel one. Jobs over the limit are refused, never queued.',
});

/** The 429 of a job over its tier's limit: the limit, how many jobs hold a slot, and when to retry. */
export function concurrentJobLimit(tier: string, limit: number, active: number): ProblemError {
  return problem(
    TooManyJobs,
    `the ${tier} tier runs at most ${limit} concurrent job${limit === 1 ? '' : 's'} and ${active} ` +
      `${active === 1 ? 'is' : 'are'} queued or running; retry when one finishes`,
    { limit, active_jobs: active, tier },
    { 'Retry-After': '5' },
  );
}
