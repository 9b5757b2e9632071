import type { BillingService } from './billing-service.js';
import type { Clock } from '../clock.js';

export interface BillingSchedule {
  /** Resolves once a run in progress has finished; no run starts after it. */
  stop(): Promise<void>;
}

/**
 * The billing run, once at start and then every `intervalMs`: over the accounts with billing work by
 * the clock's now (periods ended, fees due, purchases left open), it renews, charges the fees and
 * settles the open purchases with the provider. Each step is idempotent (a renewal on its period, a
 * fee on its attempt's key, a purchase on its reference), so overlapping instances of a fleet cannot
 * bill or grant twice; the account stream's revision decides.
 */
export function scheduleBillingRun(options: {
  billing: BillingService;
  clock: Clock;
  dueAccounts: (now: Date) => string[];
  intervalMs: number;
  /** A run that failed, or one account's failure in a run that went on with the others (AccountBillingFailed). */
  onError: (error: unknown) => void;
}): BillingSchedule {
  let running: Promise<void> = Promise.resolve();
  const run = () => {
    running = running
      .then(() => options.billing.runDue(options.dueAccounts(options.clock.now())))
      .then(({ failed }) => failed.forEach((failure) => options.onError(failure)), options.onError);
  };
  run();
  const timer = setInterval(run, options.intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
