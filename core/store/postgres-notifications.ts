import pg from 'pg';
import type { UnexpectedErrors } from '../faults/unexpected-errors.js';

const CHANNEL = 'finsynth_events';
const CONNECT_TIMEOUT_MS = 5_000;
/** A NOTIFY that the server does not answer in this time (it is frozen) gives the connection up. */
const QUERY_TIMEOUT_MS = 5_000;
const RETRY_MS = 1_000;

/**
 * Appends across the instances of a fleet: `announce` tells the others that this instance appended to
 * the schema's events, and their `appended` target fires. The NOTIFY is sent after the append, not from
 * its transaction (a trigger): PostgreSQL serialises the commits of notifying transactions, which
 * would cut the rate of concurrent appends (see docs/performance.md). One instance's
 * announcements are coalesced (one in flight, one pending). Nothing here is needed for correctness:
 * subscriptions still poll, for an append read-all holds back behind an older transaction, or for
 * the moments when no connection listens.
 */
export class AppendNotifications {
  /** Fires when another instance (or this one) has appended. */
  readonly appended = new EventTarget();
  private listener: Promise<pg.Client | undefined> | undefined;
  private listening = false;
  private closed = false;
  private announcing = false;
  private announceAgain = false;

  constructor(
    private readonly connectionString: string,
    private readonly schemaName: string,
    private readonly faults: UnexpectedErrors,
  ) {}

  /** Keeps a connection listening from now on, opened again within a second whenever it is lost. */
  listen(): void {
    this.listening = true;
    void this.connection();
  }

  announce(): void {
    this.appended.dispatchEvent(new Event('append'));
    if (this.announcing) {
      this.announceAgain = true;
      return;
    }
    this.announcing = true;
    void (async () => {
      try {
        do {
          this.announceAgain = false;
          await (await this.connection())?.query('SELECT pg_notify($1, $2)', [CHANNEL, this.schemaName]);
        } while (this.announceAgain && !this.closed);
      } catch {
        // The others' poll finds the events all the same; the connection's error was reported where it was dropped.
      } finally {
        this.announcing = false;
      }
    })();
  }

  async close(): Promise<void> {
    this.closed = true;
    await (await this.listener)?.end().catch(() => undefined);
  }

  /** The listening connection (announcements go through it too); undefined while it cannot be opened. */
  private connection(): Promise<pg.Client | undefined> {
    if (this.listener) return this.listener;
    if (this.closed) return Promise.resolve(undefined);
    const client = new pg.Client({
      connectionString: this.connectionString,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      query_timeout: QUERY_TIMEOUT_MS,
      keepAlive: true,
    });
    let dropped = false;
    const drop = (error?: unknown) => {
      if (dropped) return;
      dropped = true;
      if (error !== undefined && !this.closed)
        this.faults.report('postgres-notifications', error, { schema: this.schemaName });
      client.end().catch(() => undefined);
      // Only this attempt is forgotten (a newer connection may stand in its place already); subscriptions
      // waiting for a notification would not ask again, so the connection is opened again for them.
      setTimeout(() => {
        if (this.listener !== opening) return;
        this.listener = undefined;
        if (this.listening) void this.connection();
      }, RETRY_MS).unref();
    };
    client.on('error', drop);
    client.on('end', () => drop());
    client.on('notification', ({ payload }) => {
      if (payload === this.schemaName) this.appended.dispatchEvent(new Event('append'));
    });
    const opening = (async () => {
      try {
        await client.connect();
        await client.query(`LISTEN ${CHANNEL}`);
      } catch (error) {
        drop(error);
        return undefined;
      }
      // Appends announced while no connection listened are read now.
      this.appended.dispatchEvent(new Event('append'));
      if (!this.closed) return client;
      drop();
      return undefined;
    })();
    this.listener = opening;
    return opening;
  }
}
