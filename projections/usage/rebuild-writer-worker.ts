import { parentPort, workerData } from 'node:worker_threads';
import { SqliteEventStore } from '../../core/store/sqlite-store.js';
import { SqliteUsageRecordTable } from './usage-records-sqlite.js';
import { TableWriter } from './table-writer.js';
import type { WriterReply, WriterRequest } from './worker-rebuild-writer.js';

/**
 * A rebuild's writer of a sqlite file's usage records (started bundled, see core/workers/bundled-worker.ts): applies
 * the changes it is sent over a connection of its own, and answers each request but `add` in the order it came.
 */
const store = new SqliteEventStore(workerData.file);
const writer = new TableWriter(new SqliteUsageRecordTable(store.db));

async function answer(request: Exclude<WriterRequest, { kind: 'add' }>): Promise<WriterReply> {
  try {
    switch (request.kind) {
      case 'reset':
        await writer.reset();
        return { applied: true };
      case 'apply':
        return { applied: await writer.apply(request.after, request.checkpoint) };
      case 'close':
        await writer.close();
        await store.close();
        return { applied: true };
    }
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

parentPort!.on('message', async (request: WriterRequest) => {
  if (request.kind === 'add') writer.add(request.changes);
  else parentPort!.postMessage(await answer(request));
});
