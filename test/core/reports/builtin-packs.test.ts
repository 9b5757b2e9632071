import { expect } from 'chai';
import { loadPacks } from '../../../core/packs/loader.js';
import type { PackRegistry } from '../../../core/packs/registry.js';
import { GenerationPool } from '../../../core/generation/pool.js';
import { ReportCollector } from '../../../core/reports/report-collector.js';
import type { DatasetReport } from '../../../core/reports/report.js';

const ROWS = 6_000;

describe('the five built-in packs against their own report', function () {
  this.timeout(120_000);
  let registry: PackRegistry;
  let pool: GenerationPool;

  before(async () => {
    registry = await loadPacks();
    pool = new GenerationPool(registry, { size: 2 });
  });
  after(() => pool.close());

  async function reportOf(sector: string): Promise<DatasetReport> {
    const tables = Object.entries(registry.loaded(sector).definition.tables);
    // A table whose parents decide its rows gets its default, which they are sized to hold.
    const plan = await pool.plan({
      sector,
      seed: 5,
      tables: tables.map(([name, table]) => (table.rows_per_parent ? { name } : { name, rows: ROWS })),
    });
    const collector = new ReportCollector(plan);
    for (const { name } of plan.tables)
      await pool.bytes(plan, name, { format: 'csv', statistics: collector.statisticsFor(name) });
    return collector.report();
  }

  for (const [sector, declared] of [
    ['banking', ['balance-follows-movements', 'amount-signed-by-direction']],
    ['cards', ['settled-after-authorised']],
    ['insurance', ['cover-ends-after-start']],
    ['lending', ['balance-amortises', 'amortisation-ends-at-zero']],
    ['markets', ['ohlc-consistent']],
  ] as const)
    it(`${sector}: every value valid, every reference resolved, and its invariants (${declared.join(', ')}) held on every row`, async () => {
      const report = await reportOf(sector);
      for (const table of report.tables) {
        expect(table.findings, `${sector}.${table.name}`).to.deep.equal([]);
        expect(
          table.targets.filter((target) => !target.pass),
          `${sector}.${table.name}`,
        ).to.deep.equal([]);
      }
      const checked = report.tables.flatMap((table) =>
        table.passed.filter((pass) => pass.column === '').map((pass) => [pass.check, pass.checked === table.rows]),
      );
      expect(checked).to.have.deep.members(declared.map((name) => [name, true]));
      expect(report.score).to.equal(100);
    });
});
