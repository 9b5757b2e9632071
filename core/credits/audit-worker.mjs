// A worker of the parallel audit. Plain JavaScript, as the generation pool's entry: worker threads do
// not inherit the tsx loader that bin/finsynth.js registers, so the worker registers it itself.
import { parentPort, workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
const { auditChunksOf } = await import('./audit-worker-task.ts');
parentPort.postMessage(await auditChunksOf(workerData.source, workerData.range));
