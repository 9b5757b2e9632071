import type pg from 'pg';
import { inTransaction, migrationOnce } from '../../core/store/postgres-transaction.js';
import type { StoredRecordTotals } from '../../core/audit/store-audit.js';
import {
  recordConditions,
  recordTotalsByAccount,
  type PeriodFilter,
  type RecordFilter,
  type UsageChange,
  type UsageRecord,
  type UsageRecordTable,
} from './usage-records.js';

const COLUMNS =
  'position, reference, source, operation, mode, key_id, sector, tables, rows, credits, refunded, recorded_at';

const REFUNDED_TOTALS =
  'count(*) FILTER (WHERE refunded) AS refunded_records, ' +
  'coalesce(sum(credits) FILTER (WHERE refunded), 0) AS refunded_credits';

type Row = Omit<UsageRecord, 'id' | 'position' | 'rows' | 'credits'> & {
  position: string;
  rows: string;
  credits: string;
};

/**
 * The usage records in the events' own schema, shared by the instances of a fleet: a batch takes the
 * checkpoint row's lock, so two instances never apply the same events; the second finds the checkpoint
 * moved and reads on from there.
 */
export class PostgresUsageRecordTable implements UsageRecordTable {
  private readonly records: string;
  private readonly reservations: string;
  private readonly checkpointTable: string;
  private readonly migrate: () => Promise<void>;

  /** `chunkSize`: rows per read of `inPeriod`. */
  constructor(
    private readonly pool: pg.Pool,
    quotedSchema: string,
    private readonly chunkSize = 1000,
  ) {
    this.records = `${quotedSchema}.usage_records`;
    this.reservations = `${quotedSchema}.usage_reservations`;
    this.checkpointTable = `${quotedSchema}.usage_records_checkpoint`;
    this.migrate = migrationOnce(pool, (client) =>
      client.query(`
      CREATE TABLE IF NOT EXISTS ${this.records} (
        account     text    NOT NULL,
        position    bigint  NOT NULL,
        reference   text    NOT NULL,
        source      text    NOT NULL,
        operation   text    NOT NULL,
        mode        text    NOT NULL,
        key_id      text,
        sector      text    NOT NULL,
        tables      jsonb   NOT NULL,
        rows        bigint  NOT NULL,
        credits     bigint  NOT NULL,
        refunded    boolean NOT NULL,
        recorded_at text    NOT NULL,
        PRIMARY KEY (account, position)
      );
      CREATE INDEX IF NOT EXISTS usage_records_by_reference ON ${this.records} (account, reference);
      CREATE INDEX IF NOT EXISTS usage_records_by_time ON ${this.records} (account, recorded_at);
      CREATE TABLE IF NOT EXISTS ${this.reservations} (
        account   text NOT NULL,
        reference text NOT NULL,
        key_id    text,
        sector    text NOT NULL,
        PRIMARY KEY (account, reference)
      );
      CREATE TABLE IF NOT EXISTS ${this.checkpointTable} (
        id       integer PRIMARY KEY CHECK (id = 0),
        position bigint  NOT NULL
      );
      INSERT INTO ${this.checkpointTable} (id, position) VALUES (0, 0) ON CONFLICT DO NOTHING;`),
    );
  }

  async checkpoint(): Promise<number> {
    await this.migrate();
    const result = await this.pool.query<{ position: string }>(`SELECT position FROM ${this.checkpointTable}`);
    return Number(result.rows[0]!.position);
  }

  async apply(after: number, changes: readonly UsageChange[], checkpoint: number): Promise<boolean> {
    await this.migrate();
    return inTransaction(this.pool, async (client) => {
      const current = await client.query<{ position: string }>(
        `SELECT position FROM ${this.checkpointTable} FOR UPDATE`,
      );
      if (Number(current.rows[0]!.position) !== after) return false;
      for (const change of changes) await this.applyOne(client, change);
      await client.query(`UPDATE ${this.checkpointTable} SET position = $1`, [checkpoint]);
      return true;
    });
  }

  async page(accountId: string, filter: RecordFilter, limit: number): Promise<UsageRecord[]> {
    await this.migrate();
    const { where, values } = conditions(accountId, filter);
    const result = await this.pool.query<Row>(
      `SELECT ${COLUMNS} FROM ${this.records} WHERE ${where} ORDER BY position DESC LIMIT $${values.length + 1}`,
      [...values, limit],
    );
    return result.rows.map(fromRow);
  }

  /** In chunks of `chunkSize` rows, so that a long period is never held whole. */
  async *inPeriod(accountId: string, period: PeriodFilter): AsyncIterable<UsageRecord> {
    await this.migrate();
    const { where, values } = conditions(accountId, period);
    const chunk =
      `SELECT ${COLUMNS} FROM ${this.records} WHERE ${where} AND position > $${values.length + 1} ` +
      `ORDER BY position LIMIT ${this.chunkSize}`;
    for (let after = -1; ;) {
      const { rows } = await this.pool.query<Row>(chunk, [...values, after]);
      for (const row of rows) yield fromRow(row);
      if (rows.length < this.chunkSize) return;
      after = Number(rows.at(-1)!.position);
    }
  }

  /** One statement, so one snapshot: the checkpoint and the sums (numbers as text: bigint) agree. */
  async totals(accountId?: string): Promise<StoredRecordTotals> {
    await this.migrate();
    const { rows } = await this.pool.query<{
      checkpoint: string;
      account: string | null;
      mode: 'live' | 'test';
      records: string;
      credits: string;
      refunded_records: string;
      refunded_credits: string;
    }>(
      `SELECT c.position AS checkpoint, t.* FROM ${this.checkpointTable} c LEFT JOIN (
         SELECT account, mode, count(*) AS records, sum(credits) AS credits,
                ${REFUNDED_TOTALS}
         FROM ${this.records} WHERE $1::text IS NULL OR account = $1 GROUP BY account, mode
       ) t ON true`,
      [accountId ?? null],
    );
    const groups = rows
      .filter((row) => row.account !== null)
      .map((row) => ({
        account: row.account!,
        mode: row.mode,
        records: Number(row.records),
        credits: Number(row.credits),
        refunded_records: Number(row.refunded_records),
        refunded_credits: Number(row.refunded_credits),
      }));
    return recordTotalsByAccount(Number(rows[0]!.checkpoint), groups);
  }

  async reset(): Promise<void> {
    await this.migrate();
    await inTransaction(this.pool, (client) =>
      client.query(
        `DELETE FROM ${this.records}; DELETE FROM ${this.reservations}; ` +
          `UPDATE ${this.checkpointTable} SET position = 0`,
      ),
    );
  }

  /** Nothing is left out by the reset. */
  async rebuilt(): Promise<void> {}

  private async applyOne(client: pg.PoolClient, change: UsageChange): Promise<void> {
    switch (change.kind) {
      case 'record':
        await this.insert(client, change.accountId, change.record);
        break;
      case 'settle': {
        const found = await client.query<{ key_id: string | null; sector: string }>(
          `DELETE FROM ${this.reservations} WHERE account = $1 AND reference = $2 RETURNING key_id, sector`,
          [change.accountId, change.record.reference],
        );
        const reservation = found.rows[0];
        if (!reservation)
          throw new Error(
            `settlement of unknown reservation ${change.record.reference} on account ${change.accountId}`,
          );
        await this.insert(client, change.accountId, { ...change.record, ...reservation });
        break;
      }
      case 'refund': {
        const updated = await client.query(
          `UPDATE ${this.records} SET refunded = true WHERE account = $1 AND reference = $2 AND source = 'debit'`,
          [change.accountId, change.reference],
        );
        if (updated.rowCount === 0)
          throw new Error(`refund of unknown debit ${change.reference} on account ${change.accountId}`);
        break;
      }
      case 'reserve':
        await client.query(
          `INSERT INTO ${this.reservations} (account, reference, key_id, sector) VALUES ($1, $2, $3, $4)`,
          [change.accountId, change.reference, change.key_id, change.sector],
        );
        break;
      case 'release':
        await client.query(`DELETE FROM ${this.reservations} WHERE account = $1 AND reference = $2`, [
          change.accountId,
          change.reference,
        ]);
        break;
    }
  }

  private insert(client: pg.PoolClient, accountId: string, r: UsageRecord): Promise<unknown> {
    return client.query(
      `INSERT INTO ${this.records} (account, ${COLUMNS}) ` +
        'VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)',
      [
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
        r.refunded,
        r.recorded_at,
      ],
    );
  }
}

function conditions(accountId: string, filter: RecordFilter): { where: string; values: unknown[] } {
  return recordConditions(accountId, filter, (n) => `$${n}`);
}

const fromRow = (row: Row): UsageRecord => ({
  id: `usg_${row.position}`,
  reference: row.reference,
  source: row.source,
  operation: row.operation,
  mode: row.mode,
  key_id: row.key_id,
  sector: row.sector,
  tables: row.tables,
  rows: Number(row.rows),
  credits: Number(row.credits),
  refunded: row.refunded,
  recorded_at: row.recorded_at,
  position: Number(row.position),
});
