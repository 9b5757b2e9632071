import { expect } from 'chai';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { parquetReadObjects } from 'hyparquet';
import { openAccount, request, startTestApp, type TestAccount, type TestApp } from '../../support/app.js';
import { download, pollJob, sha256 } from './support/http.js';

type Row = Record<string, unknown>;

const SEED = 19;
const ROWS = 3000;
const TABLES = ['transactions', 'cards', 'merchants', 'cardholders'];

const rowsOf = (ndjson: string): Row[] =>
  ndjson
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Row);

/** An amount as a whole number of ten-thousandths, so that sums are exact whatever reads them. */
const tenThousandths = (amount: unknown) => Math.round(Number(amount) * 10_000);

describe('parquet results, read back by DuckDB and hyparquet', function () {
  this.timeout(120_000);
  let app: TestApp;
  let account: TestAccount;
  let folder: string;
  let duckdb: DuckDBConnection;
  let closeDuckdb: () => void;

  before(async () => {
    app = await startTestApp();
    account = await openAccount(app);
    folder = await mkdtemp(join(tmpdir(), 'finsynth-parquet-'));
    const instance = await DuckDBInstance.create(':memory:');
    duckdb = await instance.connect();
    closeDuckdb = () => {
      duckdb.closeSync();
      instance.closeSync();
    };
  });
  after(async () => {
    closeDuckdb?.();
    await rm(folder, { recursive: true, force: true });
    await app?.close();
  });

  async function runJob(output: Record<string, string>): Promise<string> {
    const config = { version: 1, sector: 'cards', seed: SEED, tables: [{ name: 'transactions', rows: ROWS }], output };
    const created = await request(app, 'POST', '/v1/jobs', { key: account.live, body: { config } });
    expect(created.status, created.text).to.equal(202);
    const done = await pollJob(app, account.live, created.body.id, ['succeeded', 'failed']);
    expect(done.body.state, done.text).to.equal('succeeded');
    return created.body.id;
  }

  /** Downloads a job's table into the test's folder (checked against its listed SHA-256) and returns its path. */
  async function saved(jobId: string, table: string, expected: { compression: string }): Promise<string> {
    const results = await request(app, 'GET', `/v1/jobs/${jobId}/results`, { key: account.live });
    const file = (results.body.data as Row[]).find((entry) => entry.table === table)!;
    expect(file).to.include({ format: 'parquet', compression: expected.compression });
    const downloaded = await download(app, account.live, `/v1/jobs/${jobId}/results/${table}`);
    expect(downloaded.status).to.equal(200);
    expect(downloaded.headers.get('content-type')).to.equal('application/vnd.apache.parquet');
    expect(downloaded.headers.get('content-disposition')).to.equal(`attachment; filename="${table}.parquet"`);
    expect(sha256(downloaded.bytes)).to.equal(file.sha256);
    // A Parquet file whatever compresses its pages: never gzip-wrapped.
    expect(downloaded.bytes.subarray(0, 4).toString()).to.equal('PAR1');
    expect(downloaded.bytes.subarray(-4).toString()).to.equal('PAR1');
    const path = join(folder, `${jobId}-${table}.parquet`);
    await writeFile(path, downloaded.bytes);
    return path;
  }

  const query = async (sql: string) => (await duckdb.runAndReadAll(sql)).getRowObjectsJson();

  it('DuckDB reads every table of a job with its types, its rows, the sums of the NDJSON job, and joins them', async () => {
    const ndjsonJob = await runJob({ format: 'ndjson' });
    const parquetJob = await runJob({ format: 'parquet' });
    const expected: Record<string, Row[]> = {};
    const paths: Record<string, string> = {};
    for (const table of TABLES) {
      expected[table] = rowsOf((await download(app, account.live, `/v1/jobs/${ndjsonJob}/results/${table}`)).text);
      paths[table] = await saved(parquetJob, table, { compression: 'snappy' });
      const [{ rows }] = await query(`select count(*)::integer as rows from '${paths[table]}'`);
      expect(rows, table).to.equal(expected[table].length);
    }
    expect(expected.transactions).to.have.length(ROWS);

    const types = Object.fromEntries(
      (await query(`describe select * from '${paths.transactions}'`)).map((row) => [row.column_name, row.column_type]),
    );
    expect(types).to.deep.equal({
      transaction_id: 'VARCHAR',
      card_id: 'VARCHAR',
      merchant_id: 'VARCHAR',
      mcc: 'VARCHAR',
      merchant_country: 'VARCHAR',
      amount: 'DECIMAL(18,4)',
      currency: 'VARCHAR',
      entry_mode: 'VARCHAR',
      authorized_at: 'TIMESTAMP WITH TIME ZONE',
      status: 'VARCHAR',
      auth_code: 'VARCHAR',
      settled_at: 'TIMESTAMP WITH TIME ZONE',
      is_fraud: 'BOOLEAN',
      fraud_pattern: 'VARCHAR',
    });
    const cardTypes = Object.fromEntries(
      (await query(`describe select * from '${paths.cards}'`)).map((row) => [row.column_name, row.column_type]),
    );
    expect(cardTypes).to.include({ issued_on: 'DATE' });

    const transactions = expected.transactions;
    const [sums] = await query(
      `select (sum(amount) * 10000)::bigint::varchar as amount, count(*) filter (where is_fraud)::integer as fraud, ` +
        `count(settled_at)::integer as settled, min(authorized_at)::varchar as first, ` +
        `count(fraud_pattern)::integer as patterns from '${paths.transactions}'`,
    );
    expect(sums).to.deep.equal({
      amount: String(transactions.reduce((sum, row) => sum + tenThousandths(row.amount), 0)),
      fraud: transactions.filter((row) => row.is_fraud === true).length,
      settled: transactions.filter((row) => row.settled_at !== null).length,
      first: isoAsDuckdb(transactions.map((row) => String(row.authorized_at)).sort()[0]),
      patterns: transactions.filter((row) => row.fraud_pattern !== null).length,
    });

    // Referenced tables are delivered by default: every transaction finds its card.
    const [joined] = await query(
      `select count(*)::integer as rows, count(c.card_id)::integer as matched ` +
        `from '${paths.transactions}' t left join '${paths.cards}' c on t.card_id = c.card_id`,
    );
    expect(joined).to.deep.equal({ rows: ROWS, matched: ROWS });
  });

  it('hyparquet reads the same values as the NDJSON job of the same config', async () => {
    const ndjsonJob = await runJob({ format: 'ndjson', referenced_tables: 'omit' });
    const parquetJob = await runJob({ format: 'parquet', referenced_tables: 'omit' });
    const expected = rowsOf((await download(app, account.live, `/v1/jobs/${ndjsonJob}/results/transactions`)).text);
    const file = (await download(app, account.live, `/v1/jobs/${parquetJob}/results/transactions`)).bytes;
    const buffer = new Uint8Array(file).buffer; // a copy: an ArrayBuffer of exactly the file's bytes
    const read = await parquetReadObjects({ file: buffer });
    expect(read).to.have.length(ROWS);
    const asText = read.map((row) => ({
      ...row,
      amount: Number(row.amount),
      authorized_at: (row.authorized_at as Date).toISOString(),
      settled_at: row.settled_at === null ? null : (row.settled_at as Date).toISOString(),
    }));
    expect(asText).to.deep.equal(expected.map((row) => ({ ...row, amount: Number(row.amount) })));
  });

  for (const compression of ['zstd', 'gzip', 'none']) {
    it(`compression ${compression}: the same rows, pages compressed inside the file`, async () => {
      const jobId = await runJob({ format: 'parquet', compression, referenced_tables: 'omit' });
      const path = await saved(jobId, 'transactions', { compression });
      const codecs = await query(`select distinct compression from parquet_metadata('${path}')`);
      expect(codecs.map((row) => row.compression)).to.deep.equal([
        compression === 'none' ? 'UNCOMPRESSED' : compression.toUpperCase(),
      ]);
      const [{ rows }] = await query(`select count(*)::integer as rows from '${path}'`);
      expect(rows).to.equal(ROWS);
    });
  }

  it('a text format asking for a Parquet compression is an invalid config that says which it may have', async () => {
    const config = {
      version: 1,
      sector: 'cards',
      tables: [{ name: 'transactions', rows: 10 }],
      output: { format: 'csv', compression: 'snappy' },
    };
    const refused = await request(app, 'POST', '/v1/jobs', { key: account.live, body: { config } });
    expect(refused.status, refused.text).to.equal(400);
    expect(refused.body.type).to.match(/invalid-config$/);
    expect(refused.body.errors).to.deep.include({
      pointer: '/output/compression',
      message: 'must be one of: "none", "gzip"',
      line: 1,
      column: JSON.stringify({ config }).indexOf('"snappy"') + 1,
    });
  });

  it('the catalog shows each column’s Parquet type', async () => {
    const table = await request(app, 'GET', '/v1/catalog/sectors/cards/tables/transactions', { key: account.live });
    expect(table.status).to.equal(200);
    const types = Object.fromEntries((table.body.columns as Row[]).map((column) => [column.name, column.parquet_type]));
    expect(types).to.include({
      transaction_id: 'STRING',
      amount: 'DECIMAL(18,4)',
      entry_mode: 'STRING (dictionary)',
      authorized_at: 'TIMESTAMP(MICROS,UTC)',
      is_fraud: 'BOOLEAN',
    });
  });
});

/** How DuckDB prints an instant of a TIMESTAMP WITH TIME ZONE in UTC, from its ISO 8601 form. */
function isoAsDuckdb(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 23).replace(/\.?0+$/, '')}+00`;
}
