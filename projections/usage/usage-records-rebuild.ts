import { bundledWorker, startBundled } from '../../core/workers/bundled-worker.js';
import { accountEvents } from '../../core/accounts/account.js';
import { EventRegistry } from '../../core/events/registry.js';
import { SqliteEventStore } from '../../core/store/sqlite-store.js';
import { SqliteUsageRecordTable } from './usage-records-sqlite.js';
import { UsageRecords } from './usage-records.js';

const WORKER_ENTRY = new URL('./usage-records-rebuild-worker.ts', import.meta.url);

/** The usage records of a sqlite file rebuilt by a worker thread with its own connection to the file. */
export async function rebuiltInWorker(file: string): Promise<void> {
  const worker = startBundled(await bundledWorker(WORKER_ENTRY), { workerData: { file } });
  await new Promise<void>((resolve, reject) => {
    worker.once('message', () => resolve());
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the usage records' rebuild worker exited with code ${code}`)));
  });
  await worker.terminate();
}

/**
 * The rebuild a worker runs: the events of the file, read through a store of its own; the records only read
 * credit events, so the account events' definitions are all the upcasting it needs.
 */
export async function rebuildUsageRecordsIn(file: string): Promise<void> {
  const store = new SqliteEventStore(file);
  try {
    await new UsageRecords(store, new EventRegistry(accountEvents), new SqliteUsageRecordTable(store.db)).rebuild();
  } finally {
    await store.close();
  }
}
