import Database from 'better-sqlite3';
import type { NewEvent, RecordedEvent } from '../events/envelope.js';
import { GENESIS_HASH } from '../events/envelope.js';
import { verifyChain, type ChainVerification, type StoredEvent } from '../events/hash-chain.js';
import type {
  AppendResult,
  EventHash,
  EventStore,
  ExpectedRevision,
  ReadAllOptions,
  ReadStreamOptions,
  SubscribeOptions,
  Subscription,
} from './event-store.js';
import type { StoreStorage } from './storage.js';
import { checkExpectedRevision, sealEvents } from './seal.js';
import { pollingSubscription } from './polling-subscription.js';
import { wakeOrTimeout } from './wake-or-timeout.js';
import {
  EVENT_COLUMNS,
  EVENT_ROW,
  eventFromColumns,
  eventFromRow,
  positionOfRow,
  SEPARATOR,
  type EventColumns,
} from './sqlite-event-row.js';

/**
 * Positions are SQLite rowids. SQLite has one writer at a time and a reader only ever sees committed
 * transactions, so positions become visible in order: read-all has no in-flight gap to guard against.
 * Events are never deleted, so a rowid is never reused and AUTOINCREMENT's extra bookkeeping is not needed.
 */
const SCHEMA = `
  CREATE TABLE IF NOT EXISTS events (
    position    INTEGER PRIMARY KEY,
    id          TEXT    NOT NULL,
    stream      TEXT    NOT NULL,
    revision    INTEGER NOT NULL,
    type        TEXT    NOT NULL,
    version     INTEGER NOT NULL,
    data        TEXT    NOT NULL,
    metadata    TEXT    NOT NULL,
    recorded_at TEXT    NOT NULL,
    hash        TEXT    NOT NULL,
    UNIQUE (stream, revision)
  ) STRICT;
`;

const COLUMNS = 'position, id, stream, revision, type, version, data, metadata, recorded_at, hash';

/**
 * A read as stored (the audit's) hands back one value per row, its numbers joined in too: better-sqlite3
 * builds no array per row for a plucked column, which makes a row cheaper again (see docs/performance.md).
 */
const STORED_ROW =
  'concat_ws(char(31), position, revision, version, id, stream, type, data, metadata, recorded_at, hash)';
const STORED_COLUMNS = 10;

/** Another process (the CLI) may append to the same file; a subscription looks for its events this often. */
const POLL_INTERVAL_MS = 100;

interface PendingAppend {
  stream: string;
  events: readonly NewEvent[];
  expected: ExpectedRevision;
  resolve(result: AppendResult): void;
  reject(error: unknown): void;
}

export interface SqliteStoreOptions {
  /**
   * `NORMAL` (default): in WAL mode a commit survives a crash of the process but the last commits may be
   * lost on power failure, the database staying consistent; `FULL` syncs the WAL on every commit.
   */
  synchronous?: 'NORMAL' | 'FULL';
}

/**
 * The embedded default store: one SQLite file in WAL mode, so that readers never block the writer and
 * the CLI can append while the server runs (busy_timeout makes the second writer wait, not fail).
 */
export class SqliteEventStore implements EventStore {
  readonly name = 'sqlite';
  /** Shared with the projection snapshots, which live in the same file. */
  readonly db: Database.Database;
  readonly storage: StoreStorage;
  private readonly appended = new EventTarget();
  private readonly statements;
  private readonly commitGroup;
  private queue: PendingAppend[] = [];

  constructor(file: string, options: SqliteStoreOptions = {}) {
    this.db = new Database(file, { timeout: 5000 });
    this.storage = { kind: 'sqlite', db: this.db };
    this.db.pragma('journal_mode = WAL');
    this.db.pragma(`synchronous = ${options.synchronous ?? 'NORMAL'}`);
    // Read-all scans the log in order: mapped pages spare a copy per page read.
    this.db.pragma('mmap_size = 268435456');
    // 64 MiB of page cache, not SQLite's 2 MiB: the read models in the same file (the usage records, kept by account)
    // touch pages all over their tables in each transaction, and with the default they were read in again for each.
    this.db.pragma('cache_size = -65536');
    this.db.exec(SCHEMA);
    this.statements = {
      head: this.db.prepare('SELECT revision, hash FROM events WHERE stream = ? ORDER BY revision DESC LIMIT 1'),
      insert: this.db.prepare(`INSERT INTO events (${COLUMNS}) VALUES (NULL, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
      forwards: this.db
        .prepare<[string, number, number], string>(
          `SELECT ${EVENT_ROW} FROM events WHERE stream = ? AND revision >= ? ORDER BY revision LIMIT ?`,
        )
        .pluck(),
      backwards: this.db
        .prepare<[string, number, number], string>(
          `SELECT ${EVENT_ROW} FROM events WHERE stream = ? AND revision <= ? ORDER BY revision DESC LIMIT ?`,
        )
        .pluck(),
      all: this.db
        .prepare<[number, number], string>(
          `SELECT ${EVENT_ROW} FROM events WHERE position > ? ORDER BY position LIMIT ?`,
        )
        .pluck(),
      allStored: this.db
        .prepare(`SELECT ${STORED_ROW} FROM events WHERE position > ? ORDER BY position LIMIT ?`)
        .pluck(),
      hashes: this.db.prepare('SELECT position, hash FROM events WHERE position > ? ORDER BY position LIMIT ?').raw(),
      columnsAt: this.db
        .prepare<[number], EventColumns>(`SELECT ${EVENT_COLUMNS} FROM events WHERE position = ?`)
        .raw(),
      textAt: this.db
        .prepare(`SELECT id, stream, type, data, metadata, recorded_at, hash FROM events WHERE position = ?`)
        .raw(),
      headPosition: this.db.prepare('SELECT coalesce(max(position), 0) FROM events').pluck(),
    };
    this.commitGroup = this.db.transaction((group: readonly PendingAppend[]) =>
      group.map((append) => this.appendInGroup(append)),
    );
  }

  /**
   * Group commit: the appends requested before the next microtask checkpoint share one transaction, so
   * concurrent writers pay for one commit between them instead of one each. A refused expectation fails
   * only its own append; a database error fails the group, and nothing of it is written.
   * A microtask, not setImmediate: a caller that loops on awaited reads must not starve the commit.
   */
  append(
    stream: string,
    events: readonly NewEvent[],
    options: { expectedRevision?: ExpectedRevision } = {},
  ): Promise<AppendResult> {
    return new Promise((resolve, reject) => {
      this.queue.push({ stream, events, expected: options.expectedRevision ?? 'any', resolve, reject });
      if (this.queue.length === 1) queueMicrotask(() => this.flush());
    });
  }

  private flush(): void {
    const group = this.queue;
    this.queue = [];
    if (group.length === 0) return;
    let outcomes: { result?: AppendResult; error?: unknown }[];
    try {
      // BEGIN IMMEDIATE takes the write lock before any head is read: no other process appends in between.
      outcomes = this.commitGroup.immediate(group);
    } catch (error) {
      for (const append of group) append.reject(error);
      return;
    }
    group.forEach((append, i) =>
      outcomes[i].error === undefined ? append.resolve(outcomes[i].result!) : append.reject(outcomes[i].error),
    );
    this.appended.dispatchEvent(new Event('append'));
  }

  /**
   * One append inside the group's transaction. Whatever can refuse it (the expectation, data that does
   * not serialize) happens before its first row is written, so a refusal fails this append alone; an
   * error of the database itself propagates and rolls the whole group back.
   */
  private appendInGroup({ stream, events, expected }: PendingAppend): { result?: AppendResult; error?: unknown } {
    let rows: unknown[][];
    let lastRevision: number;
    try {
      const head = this.statements.head.get(stream) as { revision: number; hash: string } | undefined;
      lastRevision = head?.revision ?? -1;
      checkExpectedRevision(stream, expected, lastRevision);
      rows = sealEvents(stream, lastRevision, head?.hash ?? GENESIS_HASH, events).map(({ event, json }) => [
        event.id,
        event.stream,
        event.revision,
        event.type,
        event.version,
        json.data,
        json.metadata,
        event.recorded_at,
        event.hash,
      ]);
    } catch (error) {
      return { error };
    }
    if (rows.length === 0)
      return { result: { nextRevision: lastRevision, position: this.statements.headPosition.get() as number } };
    let position = 0;
    for (const row of rows) position = Number(this.statements.insert.run(...row).lastInsertRowid);
    return { result: { nextRevision: lastRevision + rows.length, position } };
  }

  async readStream(stream: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    const limit = options.maxCount ?? -1;
    const rows =
      options.direction === 'backwards'
        ? this.statements.backwards.all(stream, options.fromRevision ?? Number.MAX_SAFE_INTEGER, limit)
        : this.statements.forwards.all(stream, options.fromRevision ?? 0, limit);
    return this.toEvents(rows);
  }

  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    return this.toEvents(this.statements.all.all(options.after ?? 0, options.maxCount ?? -1));
  }

  /**
   * Read-all as stored: data and metadata as their JSON text, unparsed. For a reader that checks hashes
   * (the audit): it hashes the stored bytes themselves and parses only the events it needs to.
   */
  async readAllStored(options: ReadAllOptions = {}): Promise<StoredEvent[]> {
    return (this.statements.allStored.all(options.after ?? 0, options.maxCount ?? -1) as string[]).map((row) => {
      const columns = row.split(SEPARATOR);
      // The numbers come first, so they are whole even when a text column held the separator.
      return toStoredEvent(
        columns.length === STORED_COLUMNS
          ? columns
          : [...columns.slice(0, 3), ...(this.statements.textAt.get(Number(columns[0])) as string[])],
      );
    });
  }

  async readAllHashes(options: ReadAllOptions = {}): Promise<EventHash[]> {
    return (this.statements.hashes.all(options.after ?? 0, options.maxCount ?? -1) as [number, string][]).map(
      ([position, hash]) => ({ position, hash }),
    );
  }

  /** A loop rather than `map`: this runs for every event read. */
  private toEvents(rows: string[]): RecordedEvent[] {
    const events = new Array<RecordedEvent>(rows.length);
    for (let i = 0; i < rows.length; i++) events[i] = eventFromRow(rows[i]) ?? this.eventAt(positionOfRow(rows[i]));
    return events;
  }

  /** An event read column by column: for a row whose text holds the separator its reads join columns with. */
  private eventAt(position: number): RecordedEvent {
    const columns = this.statements.columnsAt.get(position);
    if (!columns) throw new Error(`no event at position ${position}, which a read has just handed back`);
    return eventFromColumns(...columns);
  }

  async headPosition(): Promise<number> {
    return this.statements.headPosition.get() as number;
  }

  subscribeToAll(
    handler: (event: RecordedEvent) => Promise<void> | void,
    options: SubscribeOptions = {},
  ): Subscription {
    return pollingSubscription(this, handler, options, (signal) =>
      wakeOrTimeout(this.appended, signal, POLL_INTERVAL_MS),
    );
  }

  async verifyStream(stream: string): Promise<ChainVerification> {
    return verifyChain(stream, await this.readStream(stream));
  }

  async close(): Promise<void> {
    this.flush();
    if (this.db.open) this.db.close();
  }
}

// The columns by index rather than destructured: this runs for every event read.
function toStoredEvent(columns: string[]): StoredEvent {
  return {
    position: Number(columns[0]),
    id: columns[3],
    stream: columns[4],
    revision: Number(columns[1]),
    type: columns[5],
    version: Number(columns[2]),
    data: columns[6],
    metadata: columns[7],
    recorded_at: columns[8],
    hash: columns[9],
  };
}
