import type { BillingService } from './billing-service.js';
import type { Clock } from '../clock.js';

export interface RenewalSchedule {
  /** Resolves once a run in progress has finished; no run starts after it. */
  stop(): Promise<void>;
}

/**
 * The monthly renewal run, repeated: every `intervalMs` it renews the accounts whose period has ended
 * by the clock's now. A renewal is idempotent on its period, so overlapping instances of a fleet
 * cannot grant an allowance twice; the account stream's revision decides.
 */
export function scheduleRenewals(options: {
  billing: BillingService;
  clock: Clock;
  dueAccounts: (now: Date) => string[];
  intervalMs: number;
  onError: (error: unknown) => void;
}): RenewalSchedule {
  let running: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    running = running.then(() => options.billing.renewDue(options.dueAccounts(options.clock.now()))).then(() => undefined, options.onError);
  }, options.intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
