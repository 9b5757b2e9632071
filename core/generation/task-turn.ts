/** The states of a task's turn, in one shared 32-bit cell. */
const WAITING = 0;
const STARTED = 1;
const SKIPPED = 2;

/**
 * Whether a task of the pool was taken by its worker or dropped before: one shared cell that the worker
 * and the main thread each change atomically, so that exactly one of "the worker starts it" and "the
 * caller no longer wants it" wins. A message saying "started" could arrive after the caller had given
 * up, and the task would then be taken for queued while it ran.
 */
export class TaskTurn {
  /** Sent with the task to the worker. */
  readonly shared = new Int32Array(new SharedArrayBuffer(4));

  /** Resolves when the worker takes its turn; rejects when the task was skipped or ended before. */
  async started(): Promise<void> {
    const waited = Atomics.waitAsync(this.shared, 0, WAITING);
    if (waited.async) await waited.value;
    if (Atomics.load(this.shared, 0) !== STARTED) throw new Error('the task was not started');
  }

  /** The caller no longer wants the task: a worker that has not taken it yet will skip it. */
  skip(): void {
    if (Atomics.compareExchange(this.shared, 0, WAITING, SKIPPED) === WAITING) Atomics.notify(this.shared, 0);
  }

  /** The task's answer is in (or it failed before any worker took it): `started()` is released. */
  settle(): void {
    this.skip();
  }
}

/** In the worker: takes the task's turn, or says that the caller has dropped it. */
export function takeTurn(shared: Int32Array | undefined): boolean {
  if (!shared) return true;
  const before = Atomics.compareExchange(shared, 0, WAITING, STARTED);
  Atomics.notify(shared, 0);
  return before === WAITING;
}
