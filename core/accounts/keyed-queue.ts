/**
 * Runs tasks one after another per key, and tasks of different keys side by side. The credits service
 * queues the commands of one account in this process, so a burst of requests does not race itself on
 * the stream's revision and retry in a storm; across processes the expected revision remains the lock.
 */
export class KeyedQueue {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const result = previous.then(task, task);
    const tail = result.catch(() => undefined);
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }
}
