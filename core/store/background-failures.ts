import type { Logger } from 'pino';
import { isStoreUnavailable } from './store-unavailable.js';

/** How long the same background task stays quiet about the store being unreachable after saying so. */
const OUTAGE_QUIET_MS = 30_000;

/**
 * Logs the failures of a background task (a job runner's poll, a billing run, a catch-up). While the
 * store is unreachable such a task fails at every poll: that is said once per quiet period, with the
 * number of failures left unsaid since; any other failure is logged every time.
 */
export function backgroundFailureLog(logger: Logger, now: () => number = Date.now) {
  return (message: string) => {
    let quietUntil = -Infinity;
    let unsaid = 0;
    return (error: unknown): void => {
      if (!isStoreUnavailable(error)) return void logger.error({ err: error }, message);
      if (now() < quietUntil) return void unsaid++;
      logger.error({ err: error, store_unavailable: true, failures_unsaid: unsaid }, message);
      quietUntil = now() + OUTAGE_QUIET_MS;
      unsaid = 0;
    };
  };
}
