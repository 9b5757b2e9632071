import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Config } from '../config.js';
import type { EventStore } from './event-store.js';
import { SqliteEventStore } from './sqlite-store.js';

/**
 * The store the configuration names: PostgreSQL when FINSYNTH_POSTGRES_URL is set, KurrentDB when
 * FINSYNTH_KURRENTDB_URL is set, else the embedded SQLite file `events.db` under the data directory.
 */
export async function openEventStore(config: Config): Promise<EventStore> {
  await mkdir(config.dataDir, { recursive: true });
  return new SqliteEventStore(join(config.dataDir, 'events.db'));
}
