import { expect } from 'chai';
import { loadPacks } from '../../../core/packs/loader.js';
import { buildPlan } from '../../../core/generation/plan.js';
import { PlanRuntime } from '../../../core/generation/runtime.js';
import { ChunkLayout } from '../../../core/generation/layout.js';
import { eachRow } from '../../../core/generation/chunk.js';
import { observeChunk } from '../../../core/reports/chunk-observer.js';
import { HLL_STANDARD_ERROR, HyperLogLog } from '../../../core/reports/statistics/hyperloglog.js';

describe('a reference the engine prints from the row index, observed', () => {
  it('counts every row whose parent is out of range, the repeated parents of a per-parent table included', async () => {
    const registry = await loadPacks();
    const plan = buildPlan(registry, { sector: 'cards', seed: 3, tables: [{ name: 'transactions', rows: 2000 }] });
    const runtime = new PlanRuntime(registry.require('cards'), plan);
    const chunk = new ChunkLayout(registry.require('cards'), plan, 'transactions').at(0);
    const cards = runtime.rowsOf('cards');
    const cardId = runtime.table('transactions').columns.find((column) => column.name === 'card_id')!;
    const { rowOf } = cardId.key!;
    // The first rows point at two parents past the table's end, each repeated, then at -1 once: all orphans.
    const broken = (index: number) =>
      index - chunk.first_row < 6 ? cards + ((index - chunk.first_row) >> 1) : index - chunk.first_row === 6 ? -1 : -2;
    cardId.key!.rowOf = (index) => (broken(index) !== -2 ? broken(index) : rowOf(index));
    try {
      const observer = observeChunk(runtime, 'transactions', chunk);
      eachRow(runtime, 'transactions', chunk, (row, index) => observer.visit(row, index));
      const statistics = observer.finish();
      const column = statistics.columns.find(({ name }) => name === 'card_id')!;
      expect(column.findings?.['reference-orphan']).to.deep.include({
        check: 'reference',
        count: 7,
        row: chunk.first_row,
      });
      expect(statistics.checked['card_id\u0000reference']).to.equal(chunk.rows);
    } finally {
      cardId.key!.rowOf = rowOf;
    }
  });

  it('counts the parents each row points at when it is made, though rows are observed in batches after', async () => {
    // Card transactions: card_id is the owning card, merchant_id the merchant the generator chose (setRef). The
    // runtime knows either only until it makes the next row; a batch's rows are observed later.
    const registry = await loadPacks();
    for (const seed of [3, 11, 29]) {
      const plan = buildPlan(registry, { sector: 'cards', seed, tables: [{ name: 'transactions', rows: 20_000 }] });
      const runtime = new PlanRuntime(registry.require('cards'), plan);
      const chunk = new ChunkLayout(registry.require('cards'), plan, 'transactions').at(0);
      const columns = runtime.table('transactions').columns.filter(({ name }) => /^(card|merchant)_id$/.test(name));
      const truth = new Map(columns.map(({ name }) => [name, new Set<number>()]));
      const observer = observeChunk(runtime, 'transactions', chunk);
      eachRow(runtime, 'transactions', chunk, (row, index) => {
        for (const { name, key } of columns) truth.get(name)!.add(key!.rowOf(index));
        observer.visit(row, index);
      });
      const statistics = observer.finish();
      for (const { name } of columns) {
        const exact = truth.get(name)!.size;
        const registers = statistics.columns.find((column) => column.name === name)!.hll!;
        // Four standard errors of the sketch: a batch that read the last row's parent for all its rows counts
        // one parent in several.
        const estimate = new HyperLogLog(Uint8Array.from(registers)).estimate();
        expect(Math.abs(estimate - exact), `${name}, seed ${seed}: ${estimate} for ${exact}`).to.be.at.most(
          4 * HLL_STANDARD_ERROR * exact,
        );
        expect(exact, name).to.be.greaterThan(100);
      }
    }
  });
});
