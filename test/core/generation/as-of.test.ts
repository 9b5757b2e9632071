import { expect } from 'chai';
import { ProblemError } from '../../../core/problems.js';
import { definePack } from '../../../core/packs/sdk.js';
import { asOfEnd, DEFAULT_AS_OF } from '../../../core/generation/as-of.js';
import { generateInline, planFor, rowsOf } from './support.js';

/** A pack whose one table writes what its generator was told of the as-of date. */
const pack = definePack({
  name: 'asof',
  version: '1.0.0',
  description: 'Echoes the as-of date.',
  tables: {
    days: {
      description: 'One row per index.',
      default_rows: 3,
      credits_per_1000_rows: 1,
      columns: {
        day_id: { type: 'id', prefix: 'day', description: 'Key.' },
        as_of: { type: 'date', computed: true, description: 'ctx.asOf.' },
        last_instant: { type: 'timestamp', computed: true, description: 'The last millisecond before ctx.asOfEnd.' },
      },
      row: (ctx) => ({ as_of: ctx.asOf, last_instant: new Date(ctx.asOfEnd - 1).toISOString() }),
    },
  },
});

describe('the as-of date', () => {
  it('reaches every generator from the plan: the date and the first instant after its day', () => {
    const plan = planFor(pack, { seed: 1, as_of: '2024-02-29', tables: [{ name: 'days', rows: 3 }] });
    expect(plan.as_of).to.equal('2024-02-29');
    const rows = rowsOf(generateInline(pack, plan, 'days'));
    expect(rows.map((row) => [row.as_of, row.last_instant])).to.deep.equal(
      Array(3).fill(['2024-02-29', '2024-02-29T23:59:59.999Z']),
    );
  });

  it('is a fixed default, not today, and a plan made before plans held one gets it too', () => {
    const plan = planFor(pack, { seed: 1, tables: [{ name: 'days', rows: 1 }] });
    expect(plan.as_of).to.equal(DEFAULT_AS_OF);
    const { as_of: _dropped, ...older } = plan;
    expect(rowsOf(generateInline(pack, older, 'days'))[0].as_of).to.equal(DEFAULT_AS_OF);
    expect(asOfEnd(DEFAULT_AS_OF)).to.equal(Date.parse('2026-01-01T00:00:00Z'));
  });

  it('refuses a date that is not a calendar day in range with a problem', () => {
    for (const asOf of ['2025-02-29', '1999-12-31', 'tomorrow']) {
      expect(() => planFor(pack, { seed: 1, as_of: asOf, tables: [{ name: 'days', rows: 1 }] }), asOf)
        .to.throw(ProblemError)
        .with.property('message')
        .that.includes(`not "${asOf}"`);
    }
  });
});
