// Imports pack modules one by one in a short-lived worker thread, telling the host when each starts and
// how it ended, so that the host learns which modules' top-level code finishes before importing them into
// the main thread. Plain JavaScript for the reason given in core/generation/worker-entry.mjs: a worker
// does not inherit the main thread's tsx loader, nor the pack resolution hooks (core/generation/pack-module-hooks.mjs).
import { parentPort, workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';
import { registerPackHooks } from '../generation/pack-module-hooks.mjs';

register();
registerPackHooks();
const { describeLoadFailure } = await import('./load-error.ts');
for (const url of workerData.urls) {
  parentPort.postMessage({ url, state: 'started' });
  try {
    await import(url);
    parentPort.postMessage({ url, state: 'loaded' });
  } catch (error) {
    parentPort.postMessage({ url, state: 'failed', failure: describeLoadFailure(error, url) });
  }
}
