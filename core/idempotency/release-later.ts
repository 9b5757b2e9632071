/** How often a claim that could not be released is tried again. */
const RETRY_EVERY_MS = 1000;

/**
 * Releases a claim whose release the store refused (it was unreachable): tried again in the background
 * until it succeeds or `forMs` passes, after which the claim's lease has run out and a retry takes it
 * over anyway. Without this, every retry of the request would meet 409 in-flight for a whole lease after
 * an outage. A release by a request that no longer holds the claim appends nothing, so a late one is safe.
 */
export function releaseLater(release: () => Promise<unknown>, forMs: number, onGiveUp: (error: unknown) => void): void {
  const until = Date.now() + forMs;
  const attempt = () => {
    release().catch((error: unknown) => {
      if (Date.now() + RETRY_EVERY_MS >= until) return onGiveUp(error);
      setTimeout(attempt, RETRY_EVERY_MS).unref();
    });
  };
  setTimeout(attempt, RETRY_EVERY_MS).unref();
}
