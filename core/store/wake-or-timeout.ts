/**
 * Resolves on the next 'append' dispatched on `target`, on abort, or after `ms`: the timeout bounds the
 * wait for appends this process cannot be told about (another process, another instance), and covers an
 * append that lands between a subscription's last read and the start of this wait.
 */
export function wakeOrTimeout(target: EventTarget, signal: AbortSignal, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      target.removeEventListener('append', done);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    target.addEventListener('append', done, { once: true });
    signal.addEventListener('abort', done, { once: true });
  });
}
