import { expect } from 'chai';
import fc from 'fast-check';
import { helpers } from '../../../core/generation/helpers.js';
import { MAX_WALKED_PARENTS } from '../../../core/generation/parent-runs.js';
import { Rng } from '../../../core/generation/random/prng.js';
import { checkManifest } from '../../../core/packs/manifest.js';
import { birthday, definePack, type RowContext } from '../../../core/packs/sdk.js';
import { ProblemError } from '../../../core/problems.js';
import { generateInline, planFor, rowsOf } from '../generation/support.js';

/**
 * The SDK's hooks as the engine runs them, on a small pack: trees with a number of fruits each
 * (`rows_per_parent`), two per-tree tables reading one named stream (`ctx.stream`), and visits spread
 * by the engine (no `rows_per_parent`).
 */
const SEASON_FRUITS = { apple: 6, pear: 3, plum: 1 } as const;

const orchard = definePack({
  name: 'orchard',
  version: '1.0.0',
  description: 'Trees, their fruits, their harvests, and visits.',
  tables: {
    trees: {
      description: 'Trees.',
      default_rows: 100,
      credits_per_1000_rows: 1,
      columns: {
        tree_id: { type: 'id', prefix: 'tree', description: 'Key.' },
        fruits: {
          type: 'integer',
          distribution: 'uniform',
          min: 0,
          max: 7,
          description: 'How many fruits the tree bears.',
        },
        season: {
          type: 'decimal',
          scale: 6,
          computed: true,
          description: 'From the named stream that its per-tree tables read too.',
        },
      },
      row: (ctx) => ({ season: Math.round(ctx.stream('season').next() * 1e6) / 1e6 }),
    },
    fruits: {
      description: 'The fruits of each tree, as many as it bears.',
      // More than the trees' defaults hold (3.5 fruits a tree on average), so that sizing alone falls short.
      default_rows: 600,
      credits_per_1000_rows: 1,
      per_parent: 'trees',
      columns: {
        fruit_id: { type: 'id', prefix: 'fruit', description: 'Key.' },
        tree_id: { type: 'reference', table: 'trees', description: 'The tree.' },
        position: { type: 'integer', description: "Position among the tree's fruits." },
        of: { type: 'integer', description: "The tree's fruit count (ctx.count)." },
        season: { type: 'decimal', scale: 6, description: "The tree's season, from its named stream." },
        kind: { type: 'string', description: 'Drawn by weight.' },
      },
      rows_per_parent: (ctx) => Number(ctx.lookup('trees', ctx.parent).fruits),
      start: (ctx) => ({ season: ctx.stream('season').next() }),
      row: (ctx: RowContext, tree: { season: number }) => ({
        position: ctx.position,
        of: ctx.count,
        season: Math.round(tree.season * 1e6) / 1e6,
        kind: ctx.helpers.weightedPick(ctx.rng, SEASON_FRUITS),
      }),
    },
    harvests: {
      description: 'One harvest per tree, in the same season as its fruits.',
      default_rows: 100,
      credits_per_1000_rows: 1,
      per_parent: 'trees',
      columns: {
        tree_id: { type: 'reference', table: 'trees', description: 'The tree.' },
        season: { type: 'decimal', scale: 6, description: "The tree's season, from its named stream." },
      },
      rows_per_parent: () => 1,
      row: (ctx) => ({ season: Math.round(ctx.stream('season').next() * 1e6) / 1e6 }),
    },
    visits: {
      description: 'Visits to trees, spread by the engine.',
      default_rows: 1000,
      credits_per_1000_rows: 1,
      per_parent: 'trees',
      columns: {
        tree_id: { type: 'reference', table: 'trees', description: 'The tree.' },
      },
    },
  },
});

const generate = (tables: { name: string; rows?: number }[], seed: number, chunkRows?: number) => {
  const plan = { ...planFor(orchard, { seed, tables }), ...(chunkRows ? { chunk_rows: chunkRows } : {}) };
  return { plan, text: (table: string) => generateInline(orchard, plan, table) };
};

describe('the pack SDK', () => {
  it('accepts rows_per_parent only as a function on a per-parent table', () => {
    expect(checkManifest(orchard)).to.deep.equal([]);
    const { trees, fruits } = orchard.tables;
    const reasons = checkManifest({
      ...orchard,
      tables: { trees: { ...trees, rows_per_parent: () => 1 }, fruits: { ...fruits, rows_per_parent: 3 } },
    });
    expect(reasons).to.include('table "trees": rows_per_parent needs per_parent (the table whose rows it counts)');
    expect(reasons).to.include('table "fruits": rows_per_parent must be a function');
  });

  it('accepts rows_at_rate only of a table it references, in an option of its own whose default sets no rate', () => {
    const { trees, visits } = orchard.tables;
    const rate = (option: unknown, of = 'trees') => ({
      ...orchard,
      tables: {
        trees,
        visits: {
          ...visits,
          options: {
            per_tree: { description: 'Visits per tree.', schema: { type: ['number', 'null'] }, default: option },
          },
          rows_at_rate: { option: 'per_tree', of, per: 1 },
        },
      },
    });
    expect(checkManifest(rate(null))).to.deep.equal([]);
    expect(checkManifest(rate(2))).to.deep.equal([
      'table "visits", rows_at_rate: the default of "per_tree" must set no rate (null), so that rows mean rows',
    ]);
    expect(checkManifest(rate(null, 'visits'))).to.deep.equal([
      'table "visits", rows_at_rate: "visits" is not a table it references',
    ]);
    const { options: _options, ...withoutOption } = rate(null).tables.visits;
    expect(checkManifest({ ...orchard, tables: { trees, visits: withoutOption } })).to.deep.equal([
      'table "visits", rows_at_rate: "per_tree" is not one of its options',
    ]);
    const incomplete = { ...orchard, tables: { trees, visits: { ...visits, rows_at_rate: { of: 'trees' } } } };
    expect(checkManifest(incomplete)).to.deep.equal([
      "/tables/visits/rows_at_rate must have required property 'option'",
      "/tables/visits/rows_at_rate must have required property 'per'",
    ]);
  });

  describe('rows_per_parent', () => {
    it("gives each parent the pack's count, parents in order, the table ending at the requested rows with the last run cut", () => {
      fc.assert(
        fc.property(
          fc.nat(),
          fc.integer({ min: 1, max: 60 }),
          fc.integer({ min: 0, max: 400 }),
          (seed, treeRows, wanted) => {
            // given trees and a fruits table asking for some rows
            const trees = rowsOf(generate([{ name: 'trees', rows: treeRows }], seed).text('trees'));
            const held = trees.reduce((sum, tree) => sum + Number(tree.fruits), 0);
            const rows = Math.min(wanted, held);
            // when the fruits are generated
            const fruits = rowsOf(
              generate(
                [
                  { name: 'trees', rows: treeRows },
                  { name: 'fruits', rows },
                ],
                seed,
              ).text('fruits'),
            );
            // then they are the trees' runs in order, each of the tree's count, up to exactly the rows asked
            const expected = trees
              .flatMap((tree) =>
                Array.from({ length: Number(tree.fruits) }, (_, position) => [tree.tree_id, position, tree.fruits]),
              )
              .slice(0, rows);
            expect(fruits.map((fruit) => [fruit.tree_id, fruit.position, fruit.of])).to.deep.equal(expected);
          },
        ),
        { numRuns: 60 },
      );
    });

    it('gives the same bytes whatever the chunk size (chunks are cut by a walk over the counts, each independent)', () => {
      fc.assert(
        fc.property(
          fc.nat(),
          fc.integer({ min: 1, max: 300 }),
          fc.constantFrom(1, 7, 50, 10_000),
          (seed, rows, chunkRows) => {
            const tables = [{ name: 'fruits', rows }];
            expect(generate(tables, seed, chunkRows).text('fruits')).to.equal(generate(tables, seed).text('fruits'));
          },
        ),
        { numRuns: 40 },
      );
    });

    it('grows a parent the request does not name until its runs hold the rows asked', () => {
      const { plan, text } = generate([{ name: 'fruits', rows: 500 }], 9);
      const trees = rowsOf(text('trees'));
      expect(trees.length, 'more trees than the ratio of the defaults gives').to.be.greaterThan(
        Math.ceil((500 * 100) / 600),
      );
      expect(plan.tables.find((t) => t.name === 'trees')!.rows).to.equal(trees.length);
      expect(rowsOf(text('fruits'))).to.have.length(500);
      // just enough trees: all but the last are needed to hold fewer than 500 fruits
      expect(trees.slice(0, -1).reduce((sum, tree) => sum + Number(tree.fruits), 0)).to.be.lessThan(500);
    });

    it('refuses a request that would walk more than MAX_WALKED_PARENTS parents, saying how many rows they hold', function () {
      this.timeout(120_000);
      // given trees bearing 3.5 fruits on average: twice as many fruits as trees a walk may pass hold more
      expect(() => planFor(orchard, { seed: 1, tables: [{ name: 'fruits', rows: 7 * MAX_WALKED_PARENTS }] }))
        .to.throw(ProblemError, `This request may reach through at most ${MAX_WALKED_PARENTS} of them;`)
        .with.property('extensions')
        .that.has.property('rows_available')
        .within(3.4 * MAX_WALKED_PARENTS, 3.6 * MAX_WALKED_PARENTS);
    });

    it('refuses more rows than requested parents hold, with the number they hold', () => {
      const trees = rowsOf(generate([{ name: 'trees', rows: 4 }], 2).text('trees'));
      const held = trees.reduce((sum, tree) => sum + Number(tree.fruits), 0);
      expect(() =>
        planFor(orchard, {
          seed: 2,
          tables: [
            { name: 'trees', rows: 4 },
            { name: 'fruits', rows: held + 1 },
          ],
        }),
      )
        .to.throw(
          ProblemError,
          `Table "fruits" asks for ${held + 1} rows, ` +
            `but the 4 rows of its parent table "trees" in this plan hold ${held} in all`,
        )
        .with.property('extensions')
        .that.deep.includes({ table: 'fruits', rows_available: held });
    });
  });

  it('ctx.stream(name) is the same for a parent row and every table generated per it, and differs between parents and seeds', () => {
    const { text } = generate(
      [
        { name: 'trees', rows: 50 },
        { name: 'fruits', rows: 100 },
        { name: 'harvests', rows: 50 },
      ],
      5,
    );
    const harvests = new Map(rowsOf(text('harvests')).map((harvest) => [harvest.tree_id, harvest.season]));
    // the parent's own row draws the same stream: a rows_per_parent hook can re-derive it without a lookup
    expect(rowsOf(text('trees')).map((tree) => tree.season)).to.deep.equal([...harvests.values()]);
    const fruits = rowsOf(text('fruits'));
    expect(fruits.filter((fruit) => fruit.season !== harvests.get(fruit.tree_id))).to.deep.equal([]);
    expect(new Set(harvests.values()).size).to.equal(50);
    const other = rowsOf(
      generate(
        [
          { name: 'trees', rows: 50 },
          { name: 'harvests', rows: 50 },
        ],
        6,
      ).text('harvests'),
    );
    expect(other.map((harvest) => harvest.season)).not.to.deep.equal([...harvests.values()]);
  });

  describe('computed columns', () => {
    const ledger = definePack({
      name: 'ledger',
      version: '1.0.0',
      description: 'Entries.',
      tables: {
        entries: {
          description: 'Entries.',
          default_rows: 10,
          credits_per_1000_rows: 1,
          columns: {
            entry_id: { type: 'id', prefix: 'ent', description: 'Key.' },
            booked_on: { type: 'date', computed: true, description: 'Set by the generator: no range needed.' },
            currency: { type: 'currency', computed: true, description: 'Set by the generator.' },
            amount: {
              type: 'money',
              currency_column: 'currency',
              computed: true,
              description: 'Rounded to the currency set by the generator.',
            },
          },
          row: (ctx) =>
            ctx.index === 3
              ? { booked_on: '2025-01-01', amount: 1.234 }
              : { booked_on: '2025-01-01', currency: 'JPY', amount: 1.6 },
        },
      },
    });

    it('need no drawing parameters, but the ones they give must be valid, and keys cannot be computed', () => {
      expect(checkManifest(ledger)).to.deep.equal([]);
      const entries = ledger.tables.entries;
      const reasons = checkManifest({
        ...ledger,
        tables: {
          entries: {
            ...entries,
            columns: {
              ...entries.columns,
              entry_id: { type: 'id', prefix: 'ent', computed: true, description: 'Key.' },
              booked_on: { type: 'date', from: 'soon', computed: true, description: 'x' },
            },
          },
        },
      });
      expect(reasons.join('\n'))
        .to.contain('column "entry_id": a id column cannot be computed')
        .and.to.contain('column "booked_on": /from must match format "date"');
    });

    it('take only null_rate as an override, and a config naming another parameter is refused', () => {
      expect(() =>
        planFor(ledger, { seed: 1, tables: [{ name: 'entries', columns: { booked_on: { null_rate: 0.5 } } }] }),
      ).not.to.throw();
      expect(() =>
        planFor(ledger, {
          seed: 1,
          tables: [{ name: 'entries', columns: { booked_on: { from: '2020-01-01', to: '2020-12-31' } } }],
        }),
      ).to.throw(
        ProblemError,
        'column "booked_on": the column is computed by its table\'s generator ' +
          'does not accept "from", "to" as an override (it accepts null_rate)',
      );
    });

    it('are written as the generator sets them (money rounded to its currency), and one it leaves unset fails naming the column', () => {
      const plan = planFor(ledger, { seed: 1, tables: [{ name: 'entries', rows: 3 }] });
      expect(rowsOf(generateInline(ledger, plan, 'entries')).map((row) => [row.currency, row.amount])).to.deep.equal([
        ['JPY', 2],
        ['JPY', 2],
        ['JPY', 2],
      ]);
      const failing = planFor(ledger, { seed: 1, tables: [{ name: 'entries', rows: 5 }] });
      expect(() => generateInline(ledger, failing, 'entries')).to.throw(
        'column "currency" is computed by the table\'s generator, which did not set it',
      );
    });
  });

  it('helpers.weightedPick draws each key at its share of the weights, never a zero weight, the same for the same stream', () => {
    const rng = new Rng(7, 0);
    const weights = { a: 1, b: 3, never: 0, c: 6 };
    const drawn = Array.from({ length: 100_000 }, () => helpers.weightedPick(rng, weights));
    const share = (key: string) => drawn.filter((value) => value === key).length / drawn.length;
    expect([share('a'), share('b'), share('c')].map((value) => Math.round(value * 100) / 100)).to.deep.equal([
      0.1, 0.3, 0.6,
    ]);
    expect(share('never')).to.equal(0);
    const again = new Rng(7, 0);
    expect(Array.from({ length: 1000 }, () => helpers.weightedPick(again, weights))).to.deep.equal(
      drawn.slice(0, 1000),
    );
    expect(() => helpers.weightedPick(rng, { a: 0 })).to.throw('not all zero');
  });

  it("birthday(date, age) is the calendar's day: the same month and day, 1 March for a 29 February in a common year", () => {
    const calendar = (date: string, age: number) => {
      const [year, month, day] = date.split('-').map(Number);
      return new Date(Date.UTC(year + age, month - 1, day)).toISOString().slice(0, 10);
    };
    const dates = fc
      .date({ min: new Date('1000-01-01T00:00:00Z'), max: new Date('9899-12-31T00:00:00Z'), noInvalidDate: true })
      .map((date) => date.toISOString().slice(0, 10));
    fc.assert(
      fc.property(dates, fc.integer({ min: 0, max: 100 }), (date, age) => {
        expect(birthday(date, age)).to.equal(calendar(date, age));
      }),
      { numRuns: 2000 },
    );
    expect(birthday('2000-02-29', 18)).to.equal('2018-03-01');
    expect(birthday('2000-02-29', 4)).to.equal('2004-02-29');
    expect(birthday('1987-06-14T08:30:00.000Z', 18)).to.equal('2005-06-14');
  });

  it('spreads a small sample over several parents: three visits go to three trees', () => {
    fc.assert(
      fc.property(fc.nat(), fc.integer({ min: 1, max: 10 }), (seed, rows) => {
        const visits = rowsOf(generate([{ name: 'visits', rows }], seed).text('visits'));
        expect(new Set(visits.map((visit) => visit.tree_id)).size).to.equal(rows);
      }),
      { numRuns: 50 },
    );
  });
});
