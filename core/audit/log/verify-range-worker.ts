import { parentPort } from 'node:worker_threads';
import { verifyRange, type RangeTask } from './verify-range.js';

/**
 * A worker of `finsynth audit verify` (started bundled, see core/workers/bundled-worker.ts): says it is ready once
 * loaded, then checks the range it is given, so that its start overlaps the checking the main thread does meanwhile.
 */
parentPort!.once('message', (task: RangeTask) => parentPort!.postMessage(verifyRange(task)));
parentPort!.postMessage('ready');
