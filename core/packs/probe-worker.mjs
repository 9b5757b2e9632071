// Imports pack modules one by one in a short-lived worker thread, telling the host when each starts and
// how it ended, so that the host learns which modules' top-level code finishes before importing them into
// the main thread. Plain JavaScript for the reason given in core/generation/worker-entry.mjs: a worker
// does not inherit the main thread's tsx loader.
import { parentPort, workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
for (const url of workerData.urls) {
  parentPort.postMessage({ url, state: 'started' });
  try {
    await import(url);
    parentPort.postMessage({ url, state: 'loaded' });
  } catch (error) {
    parentPort.postMessage({ url, state: 'failed', message: String(error?.message ?? error).split('\n')[0] });
  }
}
