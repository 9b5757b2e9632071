import type { CreditsService } from '../credits/credits-service.js';
import { UNRECORDED_ORIGINAL } from '../idempotency/idempotency.js';

/**
 * The reference of a quick generation's debit, so that one request is charged once however many times
 * it is attempted under its Idempotency-Key. Every attempt is charged under the original request's id
 * (the first attempt's): a retry that took over the claim of an instance that died after its debit
 * repeats that debit, a no-op. A refunded debit is an attempt that failed and gave its charge back: the
 * next attempt is charged afresh, under the next reference (`<original>.2`, `.3`, …), the first that
 * was not refunded. The ledger says which, not the claim: an instance may die between its refund and
 * the release of its claim, or fail to refund and release all the same.
 */
export async function quickDebitReference(
  credits: Pick<CreditsService, 'account'>,
  accountId: string,
  { requestId, originalRequestId }: { requestId: string; originalRequestId: string },
): Promise<string> {
  // A first attempt has nothing debited before it; a use of the key begun under claims of version 1
  // was charged under each attempt's own id, as this attempt then is.
  if (originalRequestId === requestId || originalRequestId === UNRECORDED_ORIGINAL) return requestId;
  const { debits } = (await credits.account(accountId)).credits;
  let reference = originalRequestId;
  for (let attempt = 2; debits.get(reference)?.refunded; attempt += 1) reference = `${originalRequestId}.${attempt}`;
  return reference;
}
