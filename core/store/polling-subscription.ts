import type { RecordedEvent } from '../events/envelope.js';
import type { EventStore, SubscribeOptions, Subscription } from './event-store.js';

const BATCH = 1000;

/**
 * Catch-up subscription over readAll: reads pages after the checkpoint, hands each event to the
 * handler in order, and when caught up waits for `waitForMore` (a notification or a poll interval)
 * before reading again. Every adapter whose readAll never skips an in-flight position gets a correct
 * subscription from this.
 */
export function pollingSubscription(
  store: Pick<EventStore, 'readAll'>,
  handler: (event: RecordedEvent) => Promise<void> | void,
  options: SubscribeOptions,
  waitForMore: (signal: AbortSignal) => Promise<void>,
): Subscription {
  const controller = new AbortController();
  let checkpoint = options.after ?? 0;
  const running = (async () => {
    while (!controller.signal.aborted) {
      const events = await store.readAll({ after: checkpoint, maxCount: BATCH });
      for (const event of events) {
        if (controller.signal.aborted) return;
        await handler(event);
        checkpoint = event.position;
      }
      if (events.length < BATCH) await waitForMore(controller.signal);
    }
  })().catch((error: unknown) => {
    if (!controller.signal.aborted) options.onError?.(error);
  });
  return {
    async close() {
      controller.abort();
      await running;
    },
  };
}
