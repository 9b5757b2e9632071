import { expect } from 'chai';
import banking from '../../../plugins/banking/index.js';
import cards from '../../../plugins/cards/index.js';
import insurance from '../../../plugins/insurance/index.js';
import lending from '../../../plugins/lending/index.js';
import markets from '../../../plugins/markets/index.js';
import { loadPacks } from '../../../core/packs/loader.js';
import { GenerationPool } from '../../../core/generation/pool.js';
import { renderChunk } from '../../../core/generation/chunk.js';
import { ChunkLayout } from '../../../core/generation/layout.js';
import { PlanRuntime } from '../../../core/generation/runtime.js';
import type { Plan } from '../../../core/generation/plan.js';
import type { ColumnDefinition, PackDefinition } from '../../../core/packs/sdk.js';
import { overridableOf } from '../../../core/generation/types/params.js';
import { observeChunk } from '../../../core/reports/chunk-observer.js';
import { ReportCollector } from '../../../core/reports/report-collector.js';
import { buildReport, type TableReport } from '../../../core/reports/report.js';
import type { ChunkStatistics } from '../../../core/reports/statistics/chunk-statistics.js';
import { TableStatisticsMerger } from '../../../core/reports/table-statistics.js';
import { shareTolerance } from '../../../core/reports/targets.js';
import { planFor, rowsOf } from '../generation/support.js';

/** One table's rows and report, generated in this thread chunk after chunk, each observed as a worker observes it. */
function generateObserved(pack: PackDefinition, plan: Plan, table: string): { text: string; report: TableReport } {
  const runtime = new PlanRuntime(pack, plan);
  const layout = new ChunkLayout(pack, plan, table);
  const merger = new TableStatisticsMerger();
  const decoder = new TextDecoder();
  let text = '';
  for (let i = 0; i < layout.count; i++) {
    const observer = observeChunk(runtime, table, layout.at(i));
    text += decoder.decode(renderChunk(runtime, table, layout.at(i), 'ndjson', undefined, observer.visit));
    merger.add(observer.finish(), i);
  }
  const report = buildReport({
    sector: plan.sector,
    seed: plan.seed,
    tables: [{ name: table, statistics: merger.result() }],
  });
  return { text, report: report.tables[0] };
}

const targetOf = (table: TableReport, column: string, target: string) =>
  table.targets.find((check) => check.column === column && check.target === target);

describe("the report's targets: what the engine was asked for, held against what it did", function () {
  this.timeout(60_000);

  describe('a null rate on a column with nulls of its own', () => {
    // Credit limits are null for every debit and prepaid card (about two thirds): the null rate replaces values
    // on top of those, so the column's null share is far above the rate, which the report must not count against it.
    const columns = { credit_limit: { distribution: 'lognormal', mu: 8, sigma: 0.5 } };
    const plain = planFor(cards, { seed: 21, tables: [{ name: 'cards', rows: 6_000, columns }] });
    const nulled = planFor(cards, {
      seed: 21,
      tables: [{ name: 'cards', rows: 6_000, columns: { credit_limit: { ...columns.credit_limit, null_rate: 0.3 } } }],
    });

    it('counts exactly the values the rate replaced, and passes the rate it applied', () => {
      const before = rowsOf(generateObserved(cards, plain, 'cards').text);
      const { text, report } = generateObserved(cards, nulled, 'cards');
      const after = rowsOf(text);
      // A flat table's row is drawn from its index alone, and the null rate draws last: only the nulls differ.
      const replaced = after.filter((row, i) => row.credit_limit === null && before[i].credit_limit !== null).length;
      const generated = before.filter((row) => row.credit_limit !== null).length;
      const target = targetOf(report, 'credit_limit', 'null_rate')!;
      expect(target).to.deep.include({ configured: 0.3, achieved: replaced / generated, pass: true });
      expect(target.tolerance).to.equal(shareTolerance(0.3, generated));
      const column = report.columns.find((candidate) => candidate.name === 'credit_limit')!;
      // The column's total null share would have failed it: the pack's own nulls are most of them.
      expect(column.null_share - 0.3).to.be.above(target.tolerance);
    });

    it('still makes and passes the median and sigma of a plain column with a log-normal override', () => {
      const { report } = generateObserved(cards, nulled, 'cards');
      expect(targetOf(report, 'credit_limit', 'median')).to.deep.include({ configured: Math.exp(8), pass: true });
      expect(targetOf(report, 'credit_limit', 'sigma')).to.deep.include({ configured: 0.5, pass: true });
    });
  });

  describe('a job of card transactions with a null rate on settled_at, through the workers', () => {
    let pool: GenerationPool;
    before(async () => {
      pool = new GenerationPool(await loadPacks(), { size: 2 });
    });
    after(() => pool.close());

    async function transactionsReport(tamper?: (statistics: ChunkStatistics, chunk: number) => void) {
      const plan = await pool.plan({
        sector: 'cards',
        seed: 13,
        tables: [
          {
            name: 'transactions',
            rows: 25_000,
            columns: {
              settled_at: { null_rate: 0.1 },
              amount: { distribution: 'lognormal', mu: 3, sigma: 1 },
            },
          },
        ],
      });
      const collector = new ReportCollector(plan);
      for (const { name } of plan.tables) {
        const statistics = collector.statisticsFor(name);
        const onChunk = (chunk: unknown, index: number) => {
          if (name === 'transactions') tamper?.(chunk as ChunkStatistics, index);
          statistics.onChunk(chunk, index);
        };
        await pool.bytes(plan, name, { format: 'csv', statistics: { ...statistics, onChunk } });
      }
      return collector.report().tables.find((table) => table.name === 'transactions')!;
    }
    let untampered: Promise<TableReport> | undefined;
    const asGenerated = () => (untampered ??= transactionsReport());

    it("passes: the rate replaced a tenth of the values, though a settlement's own nulls raise the share", async () => {
      const transactions = await asGenerated();
      const target = targetOf(transactions, 'settled_at', 'null_rate')!;
      expect(target.pass, JSON.stringify(target)).to.equal(true);
      const column = transactions.columns.find((candidate) => candidate.name === 'settled_at')!;
      expect(column.null_share - 0.1).to.be.above(target.tolerance);
      expect(transactions.targets.filter((check) => !check.pass)).to.deep.equal([]);
    });

    it("makes no median or sigma target of the amount, whose draw is a quantile of its merchant's category", async () => {
      const transactions = await asGenerated();
      expect(transactions.targets.filter((check) => check.column === 'amount')).to.deep.equal([]);
    });

    it('fails a rate the engine did not apply: the config asked 0.03 where the engine replaced a tenth', async () => {
      const transactions = await transactionsReport((statistics, chunk) => {
        if (chunk !== 0) return;
        for (const column of statistics.columns)
          if (column.configured?.params.null_rate !== undefined) column.configured.params.null_rate = 0.03;
      });
      const target = targetOf(transactions, 'settled_at', 'null_rate')!;
      expect(target).to.deep.include({ configured: 0.03, pass: false });
      expect(target.achieved).to.be.closeTo(0.1, 0.01);
    });
  });

  describe('a column whose pack reshapes its draw (draw_reshaped)', () => {
    const plan = planFor(cards, {
      seed: 8,
      tables: [
        { name: 'transactions', rows: 5_000, columns: { amount: { distribution: 'lognormal', mu: 3, sigma: 1 } } },
      ],
    });
    /** The cards pack with its amount declared reshaped or not. */
    const declaring = (drawReshaped: boolean): PackDefinition => {
      const { transactions } = cards.tables;
      const amount = { ...transactions.columns.amount, draw_reshaped: drawReshaped };
      const columns = { ...transactions.columns, amount };
      return { ...cards, tables: { ...cards.tables, transactions: { ...transactions, columns } } };
    };

    it("gets no median or sigma target, since its parameters are its draw's, not the column's", () => {
      expect(cards.tables.transactions.columns.amount.draw_reshaped).to.equal(true);
      const { report } = generateObserved(cards, plan, 'transactions');
      expect(report.targets.filter((check) => check.column === 'amount')).to.deep.equal([]);
    });

    it('gets both, and fails them, when its pack does not say so', () => {
      const { report } = generateObserved(declaring(false), plan, 'transactions');
      expect(report.targets.filter((check) => check.column === 'amount').map((check) => check.target)).to.deep.equal([
        'median',
        'sigma',
      ]);
      expect(targetOf(report, 'amount', 'median')!.pass).to.equal(false);
    });

    it("gets no weights target either: a card's status is closed once replaced or expired, whatever it drew", () => {
      const uniform = { weights: { active: 1, blocked: 1, closed: 1 } };
      const statusPlan = planFor(cards, {
        seed: 8,
        tables: [{ name: 'cards', rows: 3_000, columns: { status: uniform } }],
      });
      expect(cards.tables.cards.columns.status.draw_reshaped).to.equal(true);
      expect(
        generateObserved(cards, statusPlan, 'cards').report.targets.filter((t) => t.column === 'status'),
      ).to.deep.equal([]);
      const { status } = cards.tables.cards.columns;
      const undeclared: PackDefinition = {
        ...cards,
        tables: {
          ...cards.tables,
          cards: {
            ...cards.tables.cards,
            columns: { ...cards.tables.cards.columns, status: { ...status, draw_reshaped: false } },
          },
        },
      };
      expect(
        targetOf(generateObserved(undeclared, statusPlan, 'cards').report, 'status', 'weights.closed')!.pass,
      ).to.equal(false);
    });
  });

  describe('every built-in column a config may draw', () => {
    // A config's override reaches a column through its draw: a column whose pack decides some rows itself declares
    // draw_reshaped, or the report would hold the data to parameters the pack never meant to follow.
    const builtIn: PackDefinition[] = [banking, cards, insurance, lending, markets];
    /** What each kind of column is given, and the targets it makes: uniform weights, or a log-normal. */
    const overrideOf = (
      column: ColumnDefinition,
    ): { override: Record<string, unknown>; targets: number } | undefined => {
      if (column.type === 'enum' && column.weights && Array.isArray(column.values)) {
        const weights = Object.fromEntries(column.values.map((value) => [String(value), 1]));
        return { override: { weights }, targets: column.values.length };
      }
      if (overridableOf(column).includes('distribution'))
        return { override: { distribution: 'lognormal', mu: 3, sigma: 0.5 }, targets: 2 };
      return undefined;
    };
    for (const pack of builtIn)
      for (const [table, definition] of Object.entries(pack.tables))
        for (const [column, columnDefinition] of Object.entries(definition.columns)) {
          const given = overrideOf(columnDefinition);
          if (!given) continue;
          const { override } = given;
          const reshaped = columnDefinition.draw_reshaped === true;
          const kind = 'weights' in override ? 'weights' : 'log-normal';
          const title = reshaped
            ? 'declared draw_reshaped, gets no target of its draw'
            : `follows the ${kind} a config sets, within the report's tolerance`;
          it(`${pack.name} ${table}.${column}: ${title}, over three seeds`, () => {
            for (const seed of [5, 6, 7]) {
              const plan = planFor(pack, {
                seed,
                tables: [{ name: table, rows: 2_000, columns: { [column]: override } }],
              });
              const targets = generateObserved(pack, plan, table).report.targets.filter((t) => t.column === column);
              if (reshaped) expect(targets).to.deep.equal([]);
              else {
                // A share within 4 standard errors plus half a point; a median within 4 of its standard errors in
                // log space plus 0.02; a sigma within a tenth plus 0.02 (docs/reports.md).
                expect(targets).to.have.length(given.targets);
                expect(
                  targets.filter((t) => !t.pass),
                  `seed ${seed}`,
                ).to.deep.equal([]);
              }
            }
          });
        }
  });
});
