import type { Logger } from 'pino';
import { Counter, type Registry } from 'prom-client';

/**
 * Where an error that no caller awaits ends up: an `'error'` event of a pool, a worker, a database
 * client, a stream or a socket the service owns. It is logged with its context and counted in
 * /metrics; it never ends the process (the request or job it belongs to fails on its own path).
 */
export interface UnexpectedErrors {
  /** `source` names the emitter (`generation-pool`, `postgres-pool`, …): the metric's label. */
  report(source: string, error: unknown, context?: Record<string, unknown>): void;
}

/** Reports to the service's logger and counts in its metrics registry. */
export function unexpectedErrors(logger: Logger, metrics: Registry): UnexpectedErrors {
  const counted = new Counter({
    name: 'finsynth_unexpected_errors_total',
    help: 'Errors emitted by a pool, worker, database client, stream or socket of the service, by emitter.',
    labelNames: ['source'] as const,
    registers: [metrics],
  });
  return {
    report(source, error, context = {}) {
      counted.inc({ source });
      logger.error({ err: error, source, ...context }, `unexpected error from ${source}`);
    },
  };
}

/** For callers without a service (the pack test kit, one-shot tools): thrown away after a count. */
export class CountingUnexpectedErrors implements UnexpectedErrors {
  readonly seen: { source: string; error: unknown }[] = [];

  report(source: string, error: unknown): void {
    this.seen.push({ source, error });
  }
}

/**
 * Reports the promises of this process that fail unheard, instead of Node's default of ending it: such a
 * rejection is a bug to find in the log, not a reason to drop every request and job in flight. Returns
 * the function that stops it.
 */
export function reportUnhandledRejections(faults: UnexpectedErrors): () => void {
  const unheard = (error: unknown) => faults.report('unhandled-rejection', error);
  process.on('unhandledRejection', unheard);
  return () => process.off('unhandledRejection', unheard);
}
