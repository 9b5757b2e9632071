import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Config } from '../settings/settings.js';
import type { UnexpectedErrors } from '../faults/unexpected-errors.js';
import type { EventStore } from './event-store.js';
import { KurrentDbEventStore } from './kurrentdb-store.js';
import { PostgresEventStore } from './postgres-store.js';
import { SqliteEventStore } from './sqlite-store.js';

/**
 * The store the configuration names: PostgreSQL when FINSYNTH_POSTGRES_URL is set, KurrentDB when
 * FINSYNTH_KURRENTDB_URL is set, else the embedded SQLite file `events.db` under the data directory.
 * Tests pass a PostgreSQL schema of their own, so that parallel runs never share tables.
 * Setting both server URLs is refused: a fleet whose instances pick different stores would split its history.
 * `faults` hears the errors of the store's connections that no call awaits (a connection lost while idle).
 */
export async function openEventStore(
  config: Config,
  options: { postgresSchema?: string; faults?: UnexpectedErrors } = {},
): Promise<EventStore> {
  if (config.postgresUrl && config.kurrentdbUrl) {
    throw new Error('set FINSYNTH_POSTGRES_URL or FINSYNTH_KURRENTDB_URL, not both: the events must live in one store');
  }
  if (config.postgresUrl)
    return PostgresEventStore.open(config.postgresUrl, { schema: options.postgresSchema, faults: options.faults });
  if (config.kurrentdbUrl) return KurrentDbEventStore.open(config.kurrentdbUrl, options.faults);
  await mkdir(config.dataDir, { recursive: true });
  return new SqliteEventStore(join(config.dataDir, 'events.db'));
}
