/**
 * The card tokens the sandbox payment provider knows, and what each does (docs/credits.md lists them).
 * Data, apart from the provider that reads it, so adding a scenario is one line.
 */
export type SandboxCardBehaviour =
  | { result: 'approve' }
  | { result: 'decline'; decline_code: string; message: string }
  | { result: 'fail'; message: string };

/** A Map, not an object: a token is whatever a request sends, `toString` and `__proto__` too. */
export const SANDBOX_CARDS: ReadonlyMap<string, SandboxCardBehaviour> = new Map<string, SandboxCardBehaviour>([
  ['tok_visa', { result: 'approve' }],
  ['tok_mastercard', { result: 'approve' }],
  ['tok_amex', { result: 'approve' }],
  ['tok_chargeDeclined', { result: 'decline', decline_code: 'generic_decline', message: 'The card was declined.' }],
  [
    'tok_chargeDeclinedInsufficientFunds',
    { result: 'decline', decline_code: 'insufficient_funds', message: 'The card has insufficient funds.' },
  ],
  [
    'tok_chargeDeclinedExpiredCard',
    { result: 'decline', decline_code: 'expired_card', message: 'The card has expired.' },
  ],
  [
    'tok_chargeDeclinedFraudulent',
    { result: 'decline', decline_code: 'fraudulent', message: 'The payment was declined as suspected fraud.' },
  ],
  ['tok_processingError', { result: 'fail', message: 'The payment provider had a processing error.' }],
]);

export const UNKNOWN_TOKEN: SandboxCardBehaviour = {
  result: 'decline',
  decline_code: 'invalid_token',
  message: 'The sandbox knows no such payment token; see the sandbox tokens in docs/credits.md.',
};
