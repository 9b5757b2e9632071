import { parentPort, workerData } from 'node:worker_threads';
import { verifyRange, type RangeTask } from './verify-range.js';

/** A worker of `finsynth audit verify` (started bundled, see core/workers/bundled-worker.ts): checks its range. */
parentPort!.postMessage(verifyRange(workerData as RangeTask));
