import type { Clock } from '../clock.js';
import { CLAIM_RENEW_MS } from './idempotency.js';

/**
 * How often a request holding a claim looks whether a renewal is due. The clock says when one is due
 * (so tests move time rather than wait); this only bounds how late a renewal can be.
 */
export const RENEWAL_CHECK_MS = 1000;

export interface ClaimLeaseOptions {
  clock: Clock;
  /** Appends a renewal at `at`; answers whether the claim is still this request's. */
  renew(at: string): Promise<boolean>;
  /** Another request took the claim over: this one could not renew it for a whole lease. */
  onLost(): void;
  /** A renewal failed (a store hiccup): the next check tries again, the lease outlives two misses. */
  onError(error: unknown): void;
}

/** Renews a claim every CLAIM_RENEW_MS until stopped; stopping waits for a renewal under way. */
export function keepClaim({ clock, renew, onLost, onError }: ClaimLeaseOptions): { stop(): Promise<void> } {
  let renewedAt = clock.now().getTime();
  let renewing: Promise<void> | undefined;
  const renewOnce = async (at: Date) => {
    try {
      if (await renew(at.toISOString())) renewedAt = at.getTime();
      else {
        clearInterval(timer);
        onLost();
      }
    } catch (error) {
      onError(error);
    }
  };
  const timer = setInterval(() => {
    const now = clock.now();
    if (renewing || now.getTime() - renewedAt < CLAIM_RENEW_MS) return;
    renewing = renewOnce(now).finally(() => (renewing = undefined));
  }, RENEWAL_CHECK_MS);
  // A request is what keeps the process alive, not the lease of its claim.
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await renewing;
    },
  };
}
