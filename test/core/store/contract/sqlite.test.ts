import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { SqliteEventStore } from '../../../../core/store/sqlite-store.js';
import { eventStoreContract } from './event-store-contract.js';

let dir: string;
let file: string;
let store: SqliteEventStore;

eventStoreContract('sqlite', {
  async open() {
    dir = mkdtempSync(join(tmpdir(), 'finsynth-sqlite-'));
    file = join(dir, 'events.db');
    store = new SqliteEventStore(file);
    return store;
  },
  /** Another connection to the same file, as the CLI's would be while the server runs. */
  async openWriter() {
    return new SqliteEventStore(file);
  },
  async tamper(stream, revision, data) {
    const db = new Database(file);
    db.prepare('UPDATE events SET data = ? WHERE stream = ? AND revision = ?').run(
      JSON.stringify(data),
      stream,
      revision,
    );
    db.close();
    return revision;
  },
  async close() {
    await store?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  },
});
