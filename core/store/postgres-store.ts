import { hash } from 'node:crypto';
import pg from 'pg';
import type { EventMetadata, NewEvent, RecordedEvent } from '../events/envelope.js';
import { GENESIS_HASH } from '../events/envelope.js';
import { verifyChain, type ChainVerification } from '../events/hash-chain.js';
import {
  WrongExpectedRevisionError,
  type AppendResult,
  type EventHash,
  type EventStore,
  type ExpectedRevision,
  type ReadAllOptions,
  type ReadStreamOptions,
  type SubscribeOptions,
  type Subscription,
} from './event-store.js';
import type { StoreStorage } from './storage.js';
import { checkExpectedRevision, sealEvents } from './seal.js';
import { pollingSubscription } from './polling-subscription.js';
import { wakeOrTimeout } from './wake-or-timeout.js';
import { StreamHeads } from './stream-heads.js';
import { AppendNotifications } from './postgres-notifications.js';
import { migrateUnderLock } from './postgres-transaction.js';
import { CountingUnexpectedErrors, type UnexpectedErrors } from '../faults/unexpected-errors.js';

/**
 * Global positions without an in-flight gap. Drawn from a sequence, position 5 may commit after 6, and a
 * reader whose checkpoint passed 6 never sees it; reading only below `pg_snapshot_xmin` (as Emmett and
 * Marten do) is not enough while a lower transaction id may draw a higher position. So the position is
 * the transaction id itself, `(pg_current_xact_id() << 16) + index in the append`: position order is
 * transaction order, and the rows below `xmin << 16` are a prefix of the log that no later commit can
 * insert into. No lock is taken, so concurrent appenders commit in parallel.
 *
 * The cost: positions are not contiguous (the port promises only that they increase), an append holds at
 * most 65,536 events, and xid8 must stay below 2^37 (decades of heavy use) for positions to be exact
 * numbers. A transaction that has written anywhere in the cluster holds read-all back until it ends: set
 * `idle_in_transaction_session_timeout` so that a forgotten session cannot stall the projections.
 */
const POSITION_SHIFT = 16;
const MAX_EVENTS_PER_APPEND = 2 ** POSITION_SHIFT;
/**
 * Written as a filter on `position >> 16`, not as a range bound on `position`: the planner cannot
 * estimate a bound computed from the snapshot, and without statistics (a freshly filled table) it may
 * choose a bitmap scan that sorts every later row for each page read, making a catch-up quadratic.
 * As a filter, the index condition is `position > $1` alone and the scan stays ordered and stops at the limit.
 */
const VISIBLE = `(position >> ${POSITION_SHIFT}) < pg_snapshot_xmin(pg_current_snapshot())::text::bigint`;

/** Subscriptions read again when an append is announced (postgres-notifications.ts), and at least this often. */
const POLL_INTERVAL_MS = 100;

const UNIQUE_VIOLATION = '23505';

/**
 * Bounds on every wait for the database, so that a server that is down or frozen fails the call (the
 * API answers 503) instead of holding it: a connection must be had within this time, and a statement
 * answered. The server cancels a statement at the timeout and its connection stays usable; the client
 * gives up a second later, when the server itself does not answer.
 */
export const POSTGRES_TIMEOUTS = { connectMs: 5_000, statementMs: 5_000, readMs: 6_000 } as const;

const ISO_8601_UTC = `to_char(recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

export interface PostgresStoreOptions {
  /** Tables live in this schema (created if missing); tests use a schema of their own per run. */
  schema?: string;
  poolSize?: number;
  /**
   * A pool of the caller's instead of one opened from the connection string (the contract suite's
   * slow-commit writer).
   */
  pool?: pg.Pool;
  /** The fallback poll of subscriptions (default 100 ms); tests raise it to show that notifications alone wake them. */
  pollIntervalMs?: number;
  /**
   * Where errors that no caller awaits are reported: an idle connection lost (the server restarted, or
   * terminated it), the notification connection's. They are counted and dropped when not given.
   */
  faults?: UnexpectedErrors;
}

/** The pool every instance uses: bounded waits (POSTGRES_TIMEOUTS) and TCP keep-alive, so a dead peer is noticed. */
export function postgresPool(connectionString: string, max: number): pg.Pool {
  return new pg.Pool({
    connectionString,
    max,
    connectionTimeoutMillis: POSTGRES_TIMEOUTS.connectMs,
    statement_timeout: POSTGRES_TIMEOUTS.statementMs,
    query_timeout: POSTGRES_TIMEOUTS.readMs,
    keepAlive: true,
  });
}

/**
 * The fleet's store: several API instances append and read concurrently. Appends are one INSERT
 * statement (atomic on its own); the unique (stream, revision) key is the expected-revision lock.
 */
export class PostgresEventStore implements EventStore {
  readonly name = 'postgres';
  readonly pool: pg.Pool;
  /** The quoted schema name, for the snapshot table that lives beside the events. */
  readonly schema: string;
  readonly storage: StoreStorage;
  private readonly heads = new StreamHeads();
  private readonly sql;
  private readonly notifications: AppendNotifications;

  private constructor(
    pool: pg.Pool,
    private readonly schemaName: string,
    connectionString: string,
    private readonly pollIntervalMs: number,
    faults: UnexpectedErrors,
  ) {
    this.notifications = new AppendNotifications(connectionString, schemaName, faults);
    this.pool = pool;
    // An idle connection that the server drops emits 'error' on the pool: unheard, it would end the
    // process. The pool has already discarded that connection and opens a new one when next asked.
    pool.on('error', (error) => faults.report('postgres-pool', error, { schema: schemaName }));
    this.schema = quoteIdentifier(schemaName);
    this.storage = { kind: 'postgres', pool, schema: this.schema };
    const events = `${this.schema}.events`;
    const columns = 'position, id, stream, revision, type, version, data, metadata, recorded_at, hash';
    // Formatted by the server: parsing a timestamptz into a Date and back costs more than the rest of the row.
    const selected =
      'position, id, stream, revision, type, version, data, metadata, ' + `${ISO_8601_UTC} AS recorded_at, hash`;
    // The events of an append arrive as one array per column, which unnest turns back into rows.
    const arrays =
      '$2::text[], $3::bigint[], $4::text[], $5::int[], $6::jsonb[], $7::jsonb[], $8::timestamptz[], $9::text[]';
    const unnested = 'e.id, $1, e.revision, e.type, e.version, e.data, e.metadata, e.recorded_at, e.hash';
    this.sql = prepared({
      head: `SELECT revision, hash FROM ${events} WHERE stream = $1 ORDER BY revision DESC LIMIT 1`,
      insert: `
        INSERT INTO ${events} (${columns})
        SELECT (pg_current_xact_id()::text::bigint << ${POSITION_SHIFT}) + e.ordinal - 1, ${unnested}
        FROM unnest(${arrays})
          WITH ORDINALITY AS e(id, revision, type, version, data, metadata, recorded_at, hash, ordinal)
        RETURNING position`,
      forwards: `SELECT ${selected} FROM ${events} WHERE stream = $1 AND revision >= $2 ORDER BY revision LIMIT $3`,
      backwards:
        `SELECT ${selected} FROM ${events} WHERE stream = $1 AND revision <= $2 ` + 'ORDER BY revision DESC LIMIT $3',
      all: `SELECT ${selected} FROM ${events} WHERE position > $1 AND ${VISIBLE} ORDER BY position LIMIT $2`,
      headPosition: `SELECT coalesce(max(position), 0) AS position FROM ${events} WHERE ${VISIBLE}`,
      hashes: `SELECT position, hash FROM ${events} WHERE position > $1 AND ${VISIBLE} ORDER BY position LIMIT $2`,
    });
  }

  /**
   * Connects and migrates. Migrations are idempotent and serialized by an advisory lock, so instances may
   * start together.
   */
  static async open(connectionString: string, options: PostgresStoreOptions = {}): Promise<PostgresEventStore> {
    const pool = options.pool ?? postgresPool(connectionString, options.poolSize ?? 10);
    const faults = options.faults ?? new CountingUnexpectedErrors();
    const store = new PostgresEventStore(
      pool,
      options.schema ?? 'public',
      connectionString,
      options.pollIntervalMs ?? POLL_INTERVAL_MS,
      faults,
    );
    try {
      await store.migrate();
    } catch (error) {
      await pool.end();
      throw error;
    }
    return store;
  }

  private migrate(): Promise<void> {
    return migrateUnderLock(this.pool, async (client) => {
      // Checked first: CREATE SCHEMA needs the CREATE privilege on the database even when the schema exists.
      const exists = await client.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [this.schemaName]);
      if (exists.rowCount === 0) await client.query(`CREATE SCHEMA ${this.schema}`);
      await client.query(`
        CREATE TABLE IF NOT EXISTS ${this.schema}.events (
          position    bigint      PRIMARY KEY,
          id          text        NOT NULL,
          stream      text        NOT NULL,
          revision    bigint      NOT NULL,
          type        text        NOT NULL,
          version     integer     NOT NULL,
          data        jsonb       NOT NULL,
          metadata    jsonb       NOT NULL,
          recorded_at timestamptz NOT NULL,
          hash        text        NOT NULL,
          UNIQUE (stream, revision)
        )`);
    });
  }

  async append(
    stream: string,
    events: readonly NewEvent[],
    options: { expectedRevision?: ExpectedRevision } = {},
  ): Promise<AppendResult> {
    const expected = options.expectedRevision ?? 'any';
    if (events.length > MAX_EVENTS_PER_APPEND)
      throw new RangeError(`an append holds at most ${MAX_EVENTS_PER_APPEND} events`);
    for (;;) {
      const head = await this.headOf(stream, expected);
      checkExpectedRevision(stream, expected, head.revision);
      if (events.length === 0) return { nextRevision: head.revision, position: await this.headPosition() };
      const sealed = sealEvents(stream, head.revision, head.hash, events);
      try {
        const inserted = await this.pool.query<{ position: string }>({
          ...this.sql.insert,
          values: [
            stream,
            sealed.map((e) => e.event.id),
            sealed.map((e) => e.event.revision),
            sealed.map((e) => e.event.type),
            sealed.map((e) => e.event.version),
            sealed.map((e) => e.json.data),
            sealed.map((e) => e.json.metadata),
            sealed.map((e) => e.event.recorded_at),
            sealed.map((e) => e.event.hash),
          ],
        });
        const last = sealed[sealed.length - 1].event;
        this.heads.remember(stream, last.revision, last.hash);
        this.notifications.announce();
        return { nextRevision: last.revision, position: Math.max(...inserted.rows.map((row) => Number(row.position))) };
      } catch (error) {
        if ((error as { code?: string }).code !== UNIQUE_VIOLATION) throw error;
        // Another writer took the revision since our head was read or remembered.
        this.heads.forget(stream);
        if (head.remembered) continue;
        // `any` and `exists` still hold: seal again on the new head. An exact expectation has lost.
        if (typeof expected === 'number' || expected === 'no_stream') {
          throw new WrongExpectedRevisionError(stream, expected, (await this.headOf(stream, 'any')).revision);
        }
      }
    }
  }

  /**
   * The stream's last revision (-1: none) and hash. A remembered head is used only when it satisfies the
   * expectation: if it does not, the stream may have moved on since, and only the database can tell.
   */
  private async headOf(
    stream: string,
    expected: ExpectedRevision,
  ): Promise<{ revision: number; hash: string; remembered: boolean }> {
    const known = this.heads.get(stream);
    if (known && (expected === 'any' || expected === 'exists' || expected === known.revision))
      return { ...known, remembered: true };
    const row = (await this.pool.query<{ revision: string; hash: string }>({ ...this.sql.head, values: [stream] }))
      .rows[0];
    return row
      ? { revision: Number(row.revision), hash: row.hash, remembered: false }
      : { revision: -1, hash: GENESIS_HASH, remembered: false };
  }

  async readStream(stream: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    const backwards = options.direction === 'backwards';
    const from = options.fromRevision ?? (backwards ? Number.MAX_SAFE_INTEGER : 0);
    const result = await this.pool.query<Row>({
      ...(backwards ? this.sql.backwards : this.sql.forwards),
      values: [stream, from, options.maxCount ?? null],
      rowMode: 'array',
    });
    const events = result.rows.map(toRecordedEvent);
    // A read to the end of the stream saw its head: the command handler's read before it appends.
    const head = backwards
      ? options.fromRevision === undefined
        ? events[0]
        : undefined
      : options.maxCount === undefined
        ? events.at(-1)
        : undefined;
    if (head) this.heads.remember(stream, head.revision, head.hash);
    return events;
  }

  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    const result = await this.pool.query<Row>({
      ...this.sql.all,
      values: [options.after ?? 0, options.maxCount ?? null],
      rowMode: 'array',
    });
    return result.rows.map(toRecordedEvent);
  }

  async readAllHashes(options: ReadAllOptions = {}): Promise<EventHash[]> {
    const result = await this.pool.query<[string, string]>({
      ...this.sql.hashes,
      values: [options.after ?? 0, options.maxCount ?? null],
      rowMode: 'array',
    });
    return result.rows.map(([position, hash]) => ({ position: Number(position), hash }));
  }

  async headPosition(): Promise<number> {
    return Number((await this.pool.query<{ position: string }>(this.sql.headPosition)).rows[0].position);
  }

  subscribeToAll(
    handler: (event: RecordedEvent) => Promise<void> | void,
    options: SubscribeOptions = {},
  ): Subscription {
    this.notifications.listen();
    return pollingSubscription(this, handler, options, (signal) =>
      wakeOrTimeout(this.notifications.appended, signal, this.pollIntervalMs),
    );
  }

  async verifyStream(stream: string): Promise<ChainVerification> {
    return verifyChain(stream, await this.readStream(stream));
  }

  async close(): Promise<void> {
    await this.notifications.close();
    if (!this.pool.ended) await this.pool.end();
  }
}

/** Rows come as arrays (no object per row to build and throw away), in the order of the selected columns. */
type Row = [
  position: string,
  id: string,
  stream: string,
  revision: string,
  type: string,
  version: number,
  data: unknown,
  metadata: EventMetadata,
  recorded_at: string,
  hash: string,
];

function toRecordedEvent(row: Row): RecordedEvent {
  return {
    position: Number(row[0]),
    id: row[1],
    stream: row[2],
    revision: Number(row[3]),
    type: row[4],
    version: row[5],
    data: row[6],
    metadata: row[7],
    recorded_at: row[8],
    hash: row[9],
  };
}

/**
 * Named statements: each connection parses and plans them once, then only binds values. The name is
 * derived from the text, so stores on different schemas never share a name for different texts.
 */
function prepared<Names extends string>(texts: Record<Names, string>): Record<Names, { name: string; text: string }> {
  return Object.fromEntries(
    Object.entries<string>(texts).map(([key, text]) => [
      key,
      { name: `finsynth_${hash('sha1', text, 'hex').slice(0, 16)}`, text },
    ]),
  ) as Record<Names, { name: string; text: string }>;
}

export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
