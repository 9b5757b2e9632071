import type Database from 'better-sqlite3';
import type { StoredRecordTotals } from '../../core/audit/store-audit.js';
import {
  recordConditions,
  recordTotalsByAccount,
  type PeriodFilter,
  type RecordFilter,
  type RecordTotalsRow,
  type UsageChange,
  type UsageRecord,
  type UsageRecordTable,
} from './usage-records.js';

/** Left out during a rebuild, and made once it is done: built at once from the rows is cheaper than kept up. */
const BY_TIME = 'CREATE INDEX IF NOT EXISTS usage_records_by_time ON usage_records (account, recorded_at)';

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS usage_records (
    account     TEXT    NOT NULL,
    position    INTEGER NOT NULL,
    reference   TEXT    NOT NULL,
    source      TEXT    NOT NULL,
    operation   TEXT    NOT NULL,
    mode        TEXT    NOT NULL,
    key_id      TEXT,
    sector      TEXT    NOT NULL,
    tables      TEXT    NOT NULL,
    rows        INTEGER NOT NULL,
    credits     INTEGER NOT NULL,
    refunded    INTEGER NOT NULL,
    recorded_at TEXT    NOT NULL,
    PRIMARY KEY (account, position)
  ) STRICT, WITHOUT ROWID;
  CREATE INDEX IF NOT EXISTS usage_records_by_reference ON usage_records (account, reference);
  ${BY_TIME};
  CREATE TABLE IF NOT EXISTS usage_reservations (
    account   TEXT NOT NULL,
    reference TEXT NOT NULL,
    key_id    TEXT,
    sector    TEXT NOT NULL,
    PRIMARY KEY (account, reference)
  ) STRICT, WITHOUT ROWID;
  CREATE TABLE IF NOT EXISTS usage_records_checkpoint (
    id       INTEGER PRIMARY KEY CHECK (id = 0),
    position INTEGER NOT NULL
  ) STRICT;
  INSERT OR IGNORE INTO usage_records_checkpoint (id, position) VALUES (0, 0);
`;

const COLUMNS =
  'position, reference, source, operation, mode, key_id, sector, tables, rows, credits, refunded, recorded_at';
const TOTALS =
  'account, mode, count(*) AS records, sum(credits) AS credits, sum(refunded) AS refunded_records, ' +
  'sum(credits * refunded) AS refunded_credits';

type Row = Omit<UsageRecord, 'id' | 'tables' | 'refunded'> & { tables: string; refunded: number };

/** The usage records in the events' own SQLite file: one transaction holds a batch and its checkpoint. */
export class SqliteUsageRecordTable implements UsageRecordTable {
  private readonly sql;
  private readonly applyBatch;
  private readonly clear;
  private readonly readTotals;

  /** `chunkSize`: rows per read of `inPeriod`. */
  constructor(
    private readonly db: Database.Database,
    private readonly chunkSize = 1000,
  ) {
    db.exec(SCHEMA);
    this.sql = {
      checkpoint: db.prepare('SELECT position FROM usage_records_checkpoint').pluck(),
      setCheckpoint: db.prepare('UPDATE usage_records_checkpoint SET position = ?'),
      insert: db.prepare(
        `INSERT INTO usage_records (account, ${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      // Named: without statistics SQLite takes the primary key's prefix (account) and reads every record of the
      // account, so that a rebuild slows down as accounts grow (measured: most of a 1,000,000-event rebuild).
      refund: db.prepare(
        'UPDATE usage_records INDEXED BY usage_records_by_reference SET refunded = 1 ' +
          "WHERE account = ? AND reference = ? AND source = 'debit'",
      ),
      reserve: db.prepare('INSERT INTO usage_reservations (account, reference, key_id, sector) VALUES (?, ?, ?, ?)'),
      reservation: db.prepare('SELECT key_id, sector FROM usage_reservations WHERE account = ? AND reference = ?'),
      release: db.prepare('DELETE FROM usage_reservations WHERE account = ? AND reference = ?'),
    };
    this.applyBatch = db.transaction((after: number, changes: readonly UsageChange[], checkpoint: number): boolean => {
      if (this.sql.checkpoint.get() !== after) return false;
      for (const change of changes) this.applyOne(change);
      this.sql.setCheckpoint.run(checkpoint);
      return true;
    });
    const totals = {
      all: db.prepare(`SELECT ${TOTALS} FROM usage_records GROUP BY account, mode`),
      one: db.prepare(`SELECT ${TOTALS} FROM usage_records WHERE account = ? GROUP BY account, mode`),
    };
    // One read transaction: the checkpoint and the sums from the same state of the file.
    this.readTotals = db.transaction((accountId: string | undefined): StoredRecordTotals => {
      const rows = (accountId === undefined ? totals.all.all() : totals.one.all(accountId)) as RecordTotalsRow[];
      return recordTotalsByAccount(this.sql.checkpoint.get() as number, rows);
    });
    this.clear = db.transaction(() => {
      db.exec(
        'DELETE FROM usage_records; DELETE FROM usage_reservations; ' +
          'UPDATE usage_records_checkpoint SET position = 0; DROP INDEX IF EXISTS usage_records_by_time;',
      );
    });
  }

  async checkpoint(): Promise<number> {
    return this.sql.checkpoint.get() as number;
  }

  async apply(after: number, changes: readonly UsageChange[], checkpoint: number): Promise<boolean> {
    return this.applyBatch.immediate(after, changes, checkpoint);
  }

  async page(accountId: string, filter: RecordFilter, limit: number): Promise<UsageRecord[]> {
    const { where, values } = conditions(accountId, filter);
    const rows = this.db
      .prepare(`SELECT ${COLUMNS} FROM usage_records WHERE ${where} ORDER BY position DESC LIMIT ?`)
      .all(...values, limit) as Row[];
    return rows.map(fromRow);
  }

  /**
   * In chunks of `chunkSize` rows, each read whole: a statement left iterating across the consumer's awaits
   * would keep the connection busy and fail the store's appends meanwhile.
   */
  async *inPeriod(accountId: string, period: PeriodFilter): AsyncIterable<UsageRecord> {
    const { where, values } = conditions(accountId, period);
    const chunk = this.db.prepare(
      `SELECT ${COLUMNS} FROM usage_records WHERE ${where} AND position > ? ORDER BY position LIMIT ${this.chunkSize}`,
    );
    for (let after = -1; ;) {
      const rows = chunk.all(...values, after) as Row[];
      for (const row of rows) yield fromRow(row);
      if (rows.length < this.chunkSize) return;
      after = rows.at(-1)!.position;
    }
  }

  async reset(): Promise<void> {
    this.clear.immediate();
  }

  async rebuilt(): Promise<void> {
    this.db.exec(BY_TIME);
  }

  async totals(accountId?: string): Promise<StoredRecordTotals> {
    return this.readTotals(accountId);
  }

  private applyOne(change: UsageChange): void {
    switch (change.kind) {
      case 'record':
        this.insert(change.accountId, change.record);
        break;
      case 'settle': {
        const reservation = this.sql.reservation.get(change.accountId, change.record.reference) as
          { key_id: string | null; sector: string } | undefined;
        if (!reservation)
          throw new Error(
            `settlement of unknown reservation ${change.record.reference} on account ${change.accountId}`,
          );
        this.sql.release.run(change.accountId, change.record.reference);
        this.insert(change.accountId, { ...change.record, ...reservation });
        break;
      }
      case 'refund':
        if (this.sql.refund.run(change.accountId, change.reference).changes === 0)
          throw new Error(`refund of unknown debit ${change.reference} on account ${change.accountId}`);
        break;
      case 'reserve':
        this.sql.reserve.run(change.accountId, change.reference, change.key_id, change.sector);
        break;
      case 'release':
        this.sql.release.run(change.accountId, change.reference);
        break;
    }
  }

  private insert(accountId: string, r: UsageRecord): void {
    this.sql.insert.run(
      accountId,
      r.position,
      r.reference,
      r.source,
      r.operation,
      r.mode,
      r.key_id,
      r.sector,
      JSON.stringify(r.tables),
      r.rows,
      r.credits,
      r.refunded ? 1 : 0,
      r.recorded_at,
    );
  }
}

function conditions(accountId: string, filter: RecordFilter): { where: string; values: unknown[] } {
  return recordConditions(accountId, filter, () => '?');
}

const fromRow = (row: Row): UsageRecord => ({
  id: `usg_${row.position}`,
  reference: row.reference,
  source: row.source,
  operation: row.operation,
  mode: row.mode,
  key_id: row.key_id,
  sector: row.sector,
  tables: JSON.parse(row.tables),
  rows: row.rows,
  credits: row.credits,
  refunded: row.refunded === 1,
  recorded_at: row.recorded_at,
  position: row.position,
});
