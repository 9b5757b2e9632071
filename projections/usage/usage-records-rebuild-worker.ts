import { parentPort, workerData } from 'node:worker_threads';
import { rebuildUsageRecordsIn } from './usage-records-rebuild.js';

/**
 * A worker that rebuilds the usage records of a sqlite file (started bundled, see core/workers/bundled-worker.ts),
 * so that the thread that asked rebuilds its projections meanwhile.
 */
await rebuildUsageRecordsIn(workerData.file);
parentPort!.postMessage('rebuilt');
