import { expect } from 'chai';
import { parquetMetadata, parquetReadObjects } from 'hyparquet';
import { loadPacks } from '../../../../core/packs/loader.js';
import type { PackRegistry } from '../../../../core/packs/registry.js';
import { buildPlan } from '../../../../core/generation/plan.js';
import { ChunkLayout } from '../../../../core/generation/layout.js';
import { GenerationPool } from '../../../../core/generation/pool.js';
import { ParquetFile } from '../../../../core/generation/parquet/file.js';
import { writeRowGroup } from '../../../../core/generation/parquet/row-group.js';
import { parquetColumn, ParquetValueError } from '../../../../core/generation/parquet/columns.js';
import { codecReady } from '../../../../core/generation/parquet/codecs.js';
import { dataTypeByName } from '../../../../core/generation/types/index.js';
import { parquetInline } from '../support.js';

// A copy: its buffer is an ArrayBuffer of exactly the file's bytes, as the readers take it.
const arrayBufferOf = (bytes: Uint8Array): ArrayBuffer => new Uint8Array(bytes).buffer;

describe('parquet files of the engine', function () {
  this.timeout(120_000);
  let registry: PackRegistry;

  before(async () => {
    registry = await loadPacks();
  });

  it('are the same bytes on one worker, on three and inline, one row group per chunk', async () => {
    const plan = {
      ...buildPlan(registry, { sector: 'cards', seed: 5, tables: [{ name: 'transactions', rows: 2500 }] }),
      chunk_rows: 700,
    };
    const layout = new ChunkLayout(registry.require('cards'), plan, 'transactions');
    expect(layout.count).to.be.above(2);
    const pools = [new GenerationPool(registry, { size: 1 }), new GenerationPool(registry, { size: 3 })];
    try {
      for (const compression of ['snappy', 'zstd'] as const) {
        await codecReady(compression); // zstd's module, in this thread as in each worker
        const inline = parquetInline(registry.require('cards'), plan, 'transactions', compression);
        for (const pool of pools) {
          const bytes = await pool.bytes(plan, 'transactions', { format: 'parquet', compression });
          expect(bytes.equals(inline), `${compression} on ${pool.size} workers`).to.equal(true);
        }
        const metadata = parquetMetadata(arrayBufferOf(inline));
        expect(metadata.row_groups.map((group) => Number(group.num_rows))).to.deep.equal(
          Array.from({ length: layout.count }, (_, i) => layout.at(i).rows),
        );
        expect(metadata.row_groups[0].columns[0].meta_data?.codec).to.equal(compression.toUpperCase());
      }
    } finally {
      await Promise.all(pools.map((pool) => pool.close()));
    }
  });

  it('of a table without rows hold its schema and no row group', async () => {
    const columns = [
      {
        name: 'amount',
        type: dataTypeByName.get('money')!,
        nullable: false,
        nullRate: 0,
        ownNullRate: 0,
        dependsOn: [],
        fill: () => 0,
      },
    ];
    const file = new ParquetFile();
    const bytes = Buffer.concat([
      file.start(),
      file.add(
        writeRowGroup({
          columns,
          params: [{ currency: 'JPY' }],
          rows: 0,
          each: () => {},
          compression: 'snappy',
          first: true,
        }),
      ),
      file.end(),
    ]);
    const metadata = parquetMetadata(arrayBufferOf(bytes));
    expect(metadata.row_groups).to.deep.equal([]);
    expect(metadata.schema[1]).to.include({ name: 'amount', type: 'INT64', scale: 0, precision: 18 });
    expect(await parquetReadObjects({ file: arrayBufferOf(bytes) })).to.deep.equal([]);
  });

  describe('column types', () => {
    const typeOf = (type: string, params: Record<string, unknown> = {}, nullable = false) =>
      parquetColumn({ name: 'c', type, params, nullable });

    it('integers are INT32 when their bounds fit, INT64 otherwise', () => {
      expect(typeOf('integer', { min: -5, max: 2_147_483_647 }).name).to.equal('INT32');
      expect(typeOf('integer', { min: 0, max: 2_147_483_648 }).name).to.equal('INT64');
      expect(typeOf('integer', { distribution: 'lognormal', mu: 1, sigma: 1 }).name).to.equal('INT64');
      expect(typeOf('integer', { min: 0, max: 1e12 }).convert(1e12)).to.equal(1_000_000_000_000n);
    });

    it("amounts take their fixed currency's minor units, four beside a currency column, cents otherwise", () => {
      expect(typeOf('money', { currency: 'JPY' }).name).to.equal('DECIMAL(18,0)');
      expect(typeOf('money', { currency: 'KWD' }).convert(1.25)).to.equal(1250n);
      expect(typeOf('money', { currency_column: 'currency' }).convert(12.5)).to.equal(125_000n);
      expect(typeOf('money').name).to.equal('DECIMAL(18,2)');
      expect(typeOf('decimal', { scale: 3 }).name).to.equal('DECIMAL(18,3)');
    });

    it('instants are microseconds of whole milliseconds, as the text formats print them; dates are days', () => {
      const timestamp = typeOf('timestamp');
      expect(timestamp.convert('2025-01-02T03:04:05.678Z')).to.equal(1_735_787_045_678_000n);
      expect(timestamp.convert(1_735_787_045_678.9)).to.equal(1_735_787_045_678_000n);
      expect(typeOf('date').convert('1970-01-11')).to.equal(10);
      expect(typeOf('enum').name).to.equal('STRING (dictionary)');
      expect(typeOf('iban').name).to.equal('STRING');
    });

    it('a value the type cannot hold, or a null where none may be, names the column', () => {
      expect(() => typeOf('money', { currency: 'EUR' }).convert(1e17)).to.throw(ParquetValueError, /column "c"/);
      expect(() => typeOf('timestamp').convert('yesterday')).to.throw(ParquetValueError, /instant/);
      expect(() => typeOf('boolean').convert(null)).to.throw(ParquetValueError, /not nullable/);
      expect(typeOf('boolean', {}, true).convert(null)).to.equal(null);
    });
  });
});
