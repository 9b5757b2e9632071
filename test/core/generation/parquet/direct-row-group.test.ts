import { expect } from 'chai';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { decompress as zstdDecompress } from '@bokuweb/zstd-wasm';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { parquetMetadata, parquetReadObjects } from 'hyparquet';
import { parquetRowGroup } from '../../../../core/generation/chunk.js';
import type { CompiledColumn } from '../../../../core/generation/codegen/compiled-column.js';
import { ChunkLayout } from '../../../../core/generation/layout.js';
import { buildPlan } from '../../../../core/generation/plan.js';
import { PlanRuntime } from '../../../../core/generation/runtime.js';
import { CODECS, codecReady, type ParquetCompression } from '../../../../core/generation/parquet/codecs.js';
import { ParquetFile } from '../../../../core/generation/parquet/file.js';
import { writeRowGroup, type RowGroupRequest } from '../../../../core/generation/parquet/row-group.js';
import { dataTypeByName, type Row } from '../../../../core/generation/types/index.js';
import { loadPacks } from '../../../../core/packs/loader.js';
import type { PackRegistry } from '../../../../core/packs/registry.js';
import { generateInline } from '../support.js';

type Encoder = NonNullable<RowGroupRequest['encoder']>;

// A copy: its buffer is an ArrayBuffer of exactly the file's bytes, as hyparquet takes it.
const arrayBufferOf = (bytes: Uint8Array): ArrayBuffer => new Uint8Array(bytes).buffer;
/** hyparquet reads zstd pages with the codec's WebAssembly module (compiled by codecReady), gzip with zlib. */
const readRows = (bytes: Uint8Array) =>
  parquetReadObjects({
    file: arrayBufferOf(bytes),
    compressors: { ZSTD: (input) => zstdDecompress(input), GZIP: (input) => gunzipSync(input) },
  });

/** A file of row groups, each written by `encoder` from its request. */
function fileOf(requests: RowGroupRequest[], encoder: Encoder): Buffer {
  const file = new ParquetFile();
  const parts = [file.start()];
  for (const request of requests) parts.push(file.add(writeRowGroup({ ...request, encoder })));
  parts.push(file.end());
  return Buffer.concat(parts);
}

/** A column of the given type, as the engine compiles one, for requests built by hand. */
function column(name: string, type: string, nullable = false, key?: CompiledColumn['key']): CompiledColumn {
  return {
    name,
    type: dataTypeByName.get(type)!,
    nullable,
    nullRate: 0,
    ownNullRate: 0,
    dependsOn: [],
    fill: () => null,
    ...(key ? { key } : {}),
  };
}

/** A request of rows made by `rowOf(i)`, one row group. */
function request(
  columns: CompiledColumn[],
  params: Record<string, unknown>[],
  rows: number,
  rowOf: (index: number) => Row,
  compression: ParquetCompression = 'snappy',
): RowGroupRequest {
  return {
    columns,
    params,
    rows,
    each: (visit) => {
      for (let index = 0; index < rows; index++) visit(rowOf(index), index);
    },
    compression,
    first: true,
  };
}

describe("the direct Parquet encoder against hyparquet-writer's", function () {
  this.timeout(120_000);
  let registry: PackRegistry;
  let folder: string;
  let duckdb: DuckDBConnection;
  let closeDuckdb: () => void;

  before(async () => {
    registry = await loadPacks();
    folder = await mkdtemp(join(tmpdir(), 'finsynth-direct-parquet-'));
    const instance = await DuckDBInstance.create(':memory:');
    duckdb = await instance.connect();
    closeDuckdb = () => {
      duckdb.closeSync();
      instance.closeSync();
    };
    await codecReady('zstd');
  });
  after(async () => {
    closeDuckdb?.();
    await rm(folder, { recursive: true, force: true });
  });

  const query = async (sql: string) => (await duckdb.runAndReadAll(sql)).getRowObjectsJson();

  /** Both files read back to the same rows and column types, through hyparquet and through DuckDB. */
  async function expectSameValues(direct: Buffer, plain: Buffer, label: string): Promise<void> {
    const [directRows, plainRows] = await Promise.all([direct, plain].map(readRows));
    expect(directRows.length, label).to.equal(plainRows.length);
    expect(directRows, label).to.deep.equal(plainRows);
    const directPath = join(folder, 'direct.parquet');
    const plainPath = join(folder, 'plain.parquet');
    await writeFile(directPath, direct);
    await writeFile(plainPath, plain);
    const types = (path: string) => query(`DESCRIBE SELECT * FROM read_parquet('${path}')`);
    expect(await types(directPath), label).to.deep.equal(await types(plainPath));
    const [{ rows }] = await query(`SELECT count(*) AS rows FROM read_parquet('${directPath}')`);
    expect(Number(rows), label).to.equal(plainRows.length);
    for (const [a, b] of [
      [directPath, plainPath],
      [plainPath, directPath],
    ]) {
      const [{ differing }] = await query(
        `SELECT count(*) AS differing FROM (SELECT * FROM read_parquet('${a}') EXCEPT ALL ` +
          `SELECT * FROM read_parquet('${b}'))`,
      );
      expect(Number(differing), `${label}: rows of one file not in the other`).to.equal(0);
    }
  }

  const PACK_TABLES: [string, string][] = [
    ['cards', 'transactions'],
    ['cards', 'cards'],
    ['cards', 'cardholders'],
    ['cards', 'merchants'],
    ['banking', 'customers'],
    ['banking', 'accounts'],
    ['banking', 'transactions'],
  ];
  const COMPRESSIONS: ParquetCompression[] = ['snappy', 'zstd', 'gzip', 'none'];

  it('write files of every column kind of the packs that read back to the same values (3 seeds)', async () => {
    for (const [seedIndex, seed] of [3, 17, 101].entries()) {
      const compression = COMPRESSIONS[seedIndex];
      for (const [sector, table] of PACK_TABLES) {
        const pack = registry.require(sector);
        const plan = {
          ...buildPlan(registry, { sector, seed, tables: [{ name: table, rows: 900 }] }),
          chunk_rows: 400,
        };
        const runtime = new PlanRuntime(pack, plan);
        const layout = new ChunkLayout(pack, plan, table);
        const requests = Array.from({ length: layout.count }, (_, i) =>
          parquetRowGroup(runtime, table, layout.at(i), compression),
        );
        const direct = fileOf(requests, 'direct');
        await expectSameValues(direct, fileOf(requests, 'hyparquet'), `${sector}.${table}, seed ${seed}`);
        const groups = parquetMetadata(arrayBufferOf(direct)).row_groups;
        expect(groups.length, `${sector}.${table}`).to.equal(layout.count);
        expect(groups[0].columns[0].meta_data?.codec).to.equal(CODECS[compression]);
      }
    }
  });

  it('are smaller on card transactions than the other path and than gzip CSV of the same rows (3 seeds)', async () => {
    for (const seed of [1, 2, 3]) {
      const pack = registry.require('cards');
      const plan = buildPlan(registry, { sector: 'cards', seed, tables: [{ name: 'transactions', rows: 10_000 }] });
      const runtime = new PlanRuntime(pack, plan);
      const layout = new ChunkLayout(pack, plan, 'transactions');
      const requests = Array.from({ length: layout.count }, (_, i) =>
        parquetRowGroup(runtime, 'transactions', layout.at(i), 'snappy'),
      );
      const direct = fileOf(requests, 'direct');
      const plain = fileOf(requests, 'hyparquet');
      const gzipCsv = gzipSync(generateInline(pack, plan, 'transactions', 'csv')).length;
      // Measured on seeds 1-3: 0.83-0.84 of the other path's file, 0.91-0.92 of gzip CSV (snappy pages).
      expect(direct.length / plain.length, `seed ${seed}`).to.be.below(0.9);
      expect(direct.length / gzipCsv, `seed ${seed}`).to.be.below(0.96);
      const encodings = parquetMetadata(arrayBufferOf(direct)).row_groups[0].columns.map((chunk) => [
        chunk.meta_data?.path_in_schema[0],
        chunk.meta_data?.encodings.at(-1),
      ]);
      expect(Object.fromEntries(encodings)).to.include({
        transaction_id: 'DELTA_BYTE_ARRAY',
        auth_code: 'DELTA_BYTE_ARRAY',
        card_id: 'RLE_DICTIONARY',
        currency: 'RLE_DICTIONARY',
        amount: 'DELTA_BINARY_PACKED',
        authorized_at: 'DELTA_BINARY_PACKED',
        settled_at: 'DELTA_BINARY_PACKED',
        is_fraud: 'RLE',
      });
    }
  });

  describe('on columns made by hand', () => {
    const KEY = { prefix: 'acct', tableSeed: 0x5eed, rowOf: (index: number) => Math.floor(index / 3) };

    it('nulls, runs, negative and large integers, and text past the dictionary limit', async () => {
      const columns = [
        column('small', 'integer'),
        column('large', 'integer', true),
        column('day', 'date', true),
        column('at', 'timestamp', true),
        column('price', 'decimal', true),
        column('flag', 'boolean', true),
        column('label', 'string', true),
        column('state', 'enum'),
        column('owner', 'reference', false, KEY),
        column('edge', 'integer'),
      ];
      const params = [
        { min: -10, max: 10 },
        { min: -1e15, max: 1e15 },
        {},
        {},
        { scale: 3 },
        {},
        {},
        { values: ['a', 'b'] },
        { table: 'accounts' },
        { min: -9e15, max: 9e15 },
      ];
      for (const rows of [1, 7, 8, 9, 33, 129, 1000]) {
        const rowOf = (i: number): Row => ({
          small: (i % 21) - 10,
          large: i % 5 === 0 ? null : i % 2 ? -(i ** 5) : 2 ** 52 - i,
          day: i % 4 === 0 ? null : `19${String(60 + (i % 40))}-0${1 + (i % 9)}-1${i % 10}`,
          // A jump of 250 years beside small steps: deltas that need more than 32 bits.
          at: i % 3 === 0 ? null : i % 17 === 0 ? -6e12 + i : 1.7e12 + i * 1000.4,
          price: i % 6 === 0 ? null : (i * 7919) / 1000 - 50,
          flag: i % 7 === 0 ? null : i % 11 < 9,
          label: i % 9 === 0 ? null : i < rows / 3 ? 'run' : `text ${i} ✓`,
          state: i % 3 ? 'a' : 'b',
          // Small steps from beyond -2^52, where a negative value's zigzag form is no longer a number's.
          edge: -(2 ** 52) - 7 - i,
        });
        for (const compression of COMPRESSIONS) {
          const group = request(columns, params, rows, rowOf, compression);
          await expectSameValues(fileOf([group], 'direct'), fileOf([group], 'hyparquet'), `${rows} rows`);
        }
      }
    });

    it('a column of nulls only, and keys a generator set itself beside keys made from rows', async () => {
      const columns = [column('nothing', 'timestamp', true), column('owner', 'reference', false, KEY)];
      const params = [{}, { table: 'accounts' }];
      const rowOf = (i: number): Row => ({ nothing: null, ...(i % 10 === 5 ? { owner: `acct_own${i}` } : {}) });
      for (const rows of [4, 300]) {
        const group = request(columns, params, rows, rowOf);
        const direct = fileOf([group], 'direct');
        await expectSameValues(direct, fileOf([group], 'hyparquet'), `${rows} rows`);
        const read = await readRows(direct);
        expect(read[0].owner).to.match(/^acct_[0-9a-f]{16}$/);
        if (rows > 5) expect(read[5].owner).to.equal('acct_own5');
      }
    });
  });
});
