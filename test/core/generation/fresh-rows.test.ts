import { expect } from 'chai';
import { definePack } from '../../../core/packs/sdk.js';
import { generateInline, planFor, rowsOf } from './support.js';

/** A pack whose generator returns `row()`'s answer: a new object per row, or one object every time. */
const packOf = (row: () => Record<string, unknown>) =>
  definePack({
    name: 'tallies',
    version: '1.0.0',
    description: 'Tallies.',
    tables: {
      tallies: {
        description: 'Tallies.',
        default_rows: 10,
        credits_per_1000_rows: 1,
        columns: {
          tally_id: { type: 'id', prefix: 'tly', description: 'Key.' },
          count: { type: 'integer', distribution: 'uniform', min: 0, max: 9, description: 'A count.' },
        },
        row,
      },
    },
  });

describe('a generator returns a new object for each row', () => {
  it('is generated as it returns them', () => {
    const pack = packOf(() => ({}));
    expect(
      rowsOf(generateInline(pack, planFor(pack, { seed: 1, tables: [{ name: 'tallies', rows: 5 }] }), 'tallies')),
    ).to.have.length(5);
  });

  it('is refused, naming its table, when it returns the object of the row before', () => {
    const shared = {};
    const pack = packOf(() => shared);
    const plan = planFor(pack, { seed: 1, tables: [{ name: 'tallies', rows: 5 }] });
    expect(() => generateInline(pack, plan, 'tallies')).to.throw(
      'table "tallies": row() returned the object of the row before; return a new one per row',
    );
  });
});
