import { bundledWorker, startBundled } from '../../core/workers/bundled-worker.js';
import type { RebuildWriter } from './rebuild-batches.js';
import type { UsageChange } from './usage-changes.js';

/** Every request but `add` is answered. */
export type WriterRequest =
  | { kind: 'reset' }
  | { kind: 'add'; changes: readonly UsageChange[] }
  | { kind: 'apply'; after: number; checkpoint: number }
  | { kind: 'close' };
export type WriterReply = { applied: boolean } | { error: string };

const WORKER_ENTRY = new URL('./rebuild-writer-worker.ts', import.meta.url);

/**
 * A rebuild's writer in a worker thread with its own connection to the sqlite file, so that this thread reads and
 * turns the next batch into changes while the worker writes one. Requests are answered in the order they are sent.
 */
export async function workerRebuildWriter(file: string): Promise<RebuildWriter> {
  const worker = startBundled(await bundledWorker(WORKER_ENTRY), { workerData: { file } });
  const waiting: { resolve: (applied: boolean) => void; reject: (error: Error) => void }[] = [];
  // Once the worker is gone, a request would never be answered: it fails at once instead.
  let gone: Error | null = null;
  const failAll = (error: Error) => {
    gone ??= error;
    for (const request of waiting.splice(0)) request.reject(error);
  };
  worker.on('message', (reply: WriterReply) => {
    const request = waiting.shift();
    if ('error' in reply) request?.reject(new Error(reply.error));
    else request?.resolve(reply.applied);
  });
  worker.on('error', failAll);
  worker.on('exit', (code) => failAll(new Error(`the usage records' rebuild writer exited with code ${code}`)));
  const ask = (request: WriterRequest) =>
    new Promise<boolean>((resolve, reject) => {
      if (gone) return reject(gone);
      waiting.push({ resolve, reject });
      worker.postMessage(request);
    });
  return {
    reset: async () => void (await ask({ kind: 'reset' })),
    add: (changes) => worker.postMessage({ kind: 'add', changes } satisfies WriterRequest),
    apply: (after, checkpoint) => ask({ kind: 'apply', after, checkpoint }),
    close: async () => {
      try {
        if (!gone) await ask({ kind: 'close' });
      } finally {
        await worker.terminate();
      }
    },
  };
}
