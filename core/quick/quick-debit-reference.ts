import type { CreditsService } from '../accounts/credits-service.js';
import { UNRECORDED_ORIGINAL } from '../idempotency/idempotency.js';

/** What an attempt of a quick generation is charged under, and the debits of earlier attempts it gives back. */
export interface QuickDebitReference {
  reference: string;
  supersedes: string[];
}

/**
 * The reference of a quick generation's debit, so that one request is charged once however many times
 * it is attempted under its Idempotency-Key. The first attempt is charged under its own id; each retry
 * under the next unused reference of the original request (`<original>.2`, `.3`, …), superseding the
 * debits of the attempts before it: those not refunded yet are refunded in the same append (the
 * DebitCredits command). A retry runs only when no answer was kept for the request (its attempt failed,
 * or its instance died), so the client got nothing from them. The ledger says which references were
 * used, not the claim: an instance may die between its debit or refund and the release of its claim.
 */
export async function quickDebitReference(
  credits: Pick<CreditsService, 'account'>,
  accountId: string,
  { requestId, originalRequestId }: { requestId: string; originalRequestId: string },
): Promise<QuickDebitReference> {
  // A first attempt has nothing debited before it; a use of the key begun under claims of version 1
  // was charged under each attempt's own id, as this attempt then is.
  if (originalRequestId === requestId || originalRequestId === UNRECORDED_ORIGINAL) {
    return { reference: requestId, supersedes: [] };
  }
  const { debits } = (await credits.account(accountId)).credits;
  const supersedes: string[] = [];
  let reference = originalRequestId;
  // Bounded by the attempts made: each used one reference.
  for (let attempt = 2; debits.get(reference); attempt += 1) {
    if (!debits.get(reference)?.refunded) supersedes.push(reference);
    reference = `${originalRequestId}.${attempt}`;
  }
  return { reference, supersedes };
}
