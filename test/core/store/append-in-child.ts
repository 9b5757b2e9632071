/**
 * Run by sqlite-processes.test.ts in a process of its own: appends `count` events to `stream` in `file`, one
 * append each.
 */
import { SqliteEventStore } from '../../../core/store/sqlite-store.js';

const [file, stream, count] = process.argv.slice(2);
const store = new SqliteEventStore(file);
for (let n = 0; n < Number(count); n += 1)
  await store.append(stream, [{ type: 'Noted', data: { n, pid: process.pid } }]);
await store.close();
