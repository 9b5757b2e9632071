import { expect } from 'chai';
import { definePack } from '../../../core/packs/sdk.js';
import { NUMERIC_LIMIT, numericSampler } from '../../../core/generation/types/numeric.js';
import { Rng } from '../../../core/generation/random/prng.js';
import type { Format } from '../../../core/generation/codegen/writers.js';
import { generateInline, planFor, rowsOf } from './support.js';

/** A pack whose generator writes `value` into a money, a decimal and a timestamp column in turn. */
const packWriting = (column: 'amount' | 'ratio' | 'at', value: number) =>
  definePack({
    name: 'ledgers',
    version: '1.0.0',
    description: 'Ledgers.',
    tables: {
      entries: {
        description: 'Entries.',
        default_rows: 10,
        credits_per_1000_rows: 1,
        columns: {
          entry_id: { type: 'id', prefix: 'ent', description: 'Key.' },
          amount: {
            type: 'money',
            currency: 'EUR',
            distribution: 'uniform',
            min: 1,
            max: 9,
            description: 'An amount.',
          },
          ratio: { type: 'decimal', distribution: 'uniform', min: 0, max: 1, description: 'A ratio.' },
          at: { type: 'timestamp', from: '2026-01-01T00:00:00Z', to: '2026-02-01T00:00:00Z', description: 'When.' },
        },
        row: () => ({ at: Date.UTC(2026, 0, 1), [column]: value }),
      },
    },
  });

describe('numbers a dataset can hold', () => {
  it('refuses a column holding Infinity or NaN in every text format, naming the column', () => {
    for (const format of ['csv', 'ndjson', 'json'] satisfies Format[])
      for (const column of ['amount', 'ratio', 'at'] as const)
        for (const value of [Infinity, -Infinity, NaN]) {
          const pack = packWriting(column, value);
          const plan = planFor(pack, { seed: 1, tables: [{ name: 'entries', rows: 3 }] });
          expect(() => generateInline(pack, plan, 'entries', format), `${format} ${column} ${value}`).to.throw(
            `column "${column}" holds ${value}, which is not a number a dataset can hold`,
          );
        }
  });

  it('writes finite numbers as before', () => {
    const pack = packWriting('ratio', 0.25);
    const rows = rowsOf(
      generateInline(pack, planFor(pack, { seed: 1, tables: [{ name: 'entries', rows: 3 }] }), 'entries'),
    );
    expect(rows.map((row) => row.ratio)).to.deep.equal([0.25, 0.25, 0.25]);
  });

  it('clamps a heavy tail to the numeric limit rather than drawing Infinity', () => {
    // A Pareto with a tiny alpha draws past any double: every draw is clamped, none is Infinity.
    const draw = numericSampler({ distribution: 'pareto', xm: 1, alpha: 1e-6 });
    const rng = new Rng(7);
    const draws = Array.from({ length: 1000 }, () => draw(rng));
    expect(draws.every((value) => Number.isFinite(value) && value <= NUMERIC_LIMIT)).to.equal(true);
    expect(Math.max(...draws)).to.equal(NUMERIC_LIMIT);
  });
});
