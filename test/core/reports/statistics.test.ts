import { expect } from 'chai';
import { loadPacks } from '../../../core/packs/loader.js';
import { GenerationPool } from '../../../core/generation/pool.js';
import { CHUNK_OBSERVER_URL } from '../../../core/reports/observer-url.js';
import type { ChunkStatistics } from '../../../core/reports/statistics/chunk-statistics.js';
import { HyperLogLog } from '../../../core/reports/statistics/hyperloglog.js';
import { TableStatisticsMerger, type TableStatistics } from '../../../core/reports/table-statistics.js';
import { ibanChecksumValid, luhnPasses } from '../../../core/reports/validity/checks.js';
import type { Plan } from '../../../core/generation/plan.js';

/** The plain reference: each statistic computed exactly from the parsed rows. */
function exact(rows: Record<string, unknown>[], column: string) {
  const values = rows.map((row) => row[column]).filter((value) => value !== null && value !== undefined);
  const numbers = values.map((value) => (typeof value === 'number' ? value : Date.parse(String(value))));
  const sorted = [...numbers].sort((a, b) => a - b);
  const counts = new Map<string, number>();
  for (const value of values) counts.set(String(value), (counts.get(String(value)) ?? 0) + 1);
  return {
    nulls: rows.length - values.length,
    distinct: new Set(values.map(String)).size,
    min: sorted[0],
    max: sorted[sorted.length - 1],
    mean: numbers.reduce((a, b) => a + b, 0) / numbers.length,
    quantile: (q: number) => sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)],
    counts,
  };
}

describe('report statistics, gathered by the workers per chunk and merged in chunk order', function () {
  this.timeout(60_000);
  let pool: GenerationPool;
  let plan: Plan;

  before(async () => {
    pool = new GenerationPool(await loadPacks(), { size: 2 });
    plan = await pool.plan({
      sector: 'cards',
      seed: 7,
      tables: [
        { name: 'cardholders', rows: 3_000 },
        { name: 'cards', rows: 4_000 },
        { name: 'merchants', rows: 500 },
        { name: 'transactions', rows: 40_000 },
      ],
    });
  });
  after(() => pool.close());

  async function generate(
    table: string,
    format: 'ndjson' | 'parquet' = 'ndjson',
  ): Promise<{ text: string; statistics: TableStatistics; chunks: number }> {
    const merger = new TableStatisticsMerger();
    let chunks = 0;
    const bytes = await pool.bytes(plan, table, {
      format,
      statistics: {
        url: CHUNK_OBSERVER_URL,
        onChunk: (statistics, chunk) => {
          chunks++;
          merger.add(statistics as ChunkStatistics, chunk);
        },
      },
    });
    return { text: bytes.toString('utf8'), statistics: merger.result(), chunks };
  }

  it('leaves the bytes as they are, and agrees with the exact statistics within each sketch bound', async () => {
    const { text, statistics, chunks } = await generate('transactions');
    expect(text).to.equal((await pool.bytes(plan, 'transactions', { format: 'ndjson' })).toString('utf8'));
    expect(chunks).to.be.greaterThan(1);
    const rows = text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(statistics.rows).to.equal(rows.length);
    const column = (name: string) => statistics.columns.find((c) => c.name === name)!;

    const amount = exact(rows, 'amount');
    const reported = column('amount');
    expect(reported.nulls).to.equal(amount.nulls);
    expect(reported.min).to.equal(amount.min);
    expect(reported.max).to.equal(amount.max);
    expect(reported.mean).to.be.closeTo(amount.mean, 1e-6 * amount.mean);
    for (const q of [0.05, 0.5, 0.95]) {
      const truth = amount.quantile(q);
      // DDSketch: within 1 % of the value at that rank.
      expect(reported.quantiles![`p${q * 100}`]).to.be.closeTo(truth, 0.0101 * truth);
    }
    expect(reported.histogram!.reduce((sum, bin) => sum + bin.count, 0)).to.equal(rows.length - amount.nulls);
    // HyperLogLog: 1.6 % standard error; four of them bound any honest estimate.
    expect(reported.distinct!).to.be.closeTo(amount.distinct, 0.065 * amount.distinct);

    const mcc = exact(rows, 'mcc');
    for (const top of column('mcc').top!) expect(top.count).to.equal(mcc.counts.get(top.value));
    const time = exact(rows, 'authorized_at');
    expect(column('authorized_at').min).to.equal(time.min);
    expect(column('authorized_at').max).to.equal(time.max);
  });

  it('gathers the same statistics while writing Parquet row groups as while writing NDJSON', async () => {
    const parquet = await generate('transactions', 'parquet');
    const ndjson = await generate('transactions');
    expect(parquet.chunks).to.equal(ndjson.chunks);
    expect(parquet.statistics).to.deep.equal(ndjson.statistics);
  });

  it('finds no invalid value in what the engine generates, and counts every value it checked', async () => {
    const { statistics } = await generate('cards');
    expect(statistics.findings).to.deep.equal([]);
    expect(statistics.checked['pan\u0000pan']).to.equal(4_000);
    expect(statistics.checked['cardholder_id\u0000reference']).to.equal(4_000);
  });

  it('checks ISO 13616 and Luhn independently of the generators', () => {
    expect(ibanChecksumValid('GB82WEST12345698765432')).to.equal(true);
    expect(ibanChecksumValid('GB82WEST12345698765433')).to.equal(false);
    expect(luhnPasses('4111111111111111')).to.equal(true);
    expect(luhnPasses('4111111111111112')).to.equal(false);
  });

  it('HyperLogLog counts within its bound and merges as the union', () => {
    const a = new HyperLogLog();
    const b = new HyperLogLog();
    for (let i = 0; i < 50_000; i++) (i % 2 ? a : b).add(`value-${i}`);
    a.merge(b.registers);
    expect(a.estimate()).to.be.closeTo(50_000, 50_000 * 0.065);
    const small = new HyperLogLog();
    for (let i = 0; i < 100; i++) small.add(i % 40);
    expect(small.estimate()).to.equal(40);
  });
});
