import { parentPort, workerData } from 'node:worker_threads';
import { auditChunksOf } from './audit-worker-task.js';

/**
 * A worker of the parallel audit (started bundled, see core/workers/bundled-worker.ts): audits its range
 * and posts the result.
 */
parentPort!.postMessage(await auditChunksOf(workerData.source, workerData.range));
