import { expect } from 'chai';
import fc from 'fast-check';
import { FORMATS } from '../../../core/generation/codegen/writers.js';
import { definePack, type RowContext } from '../../../core/packs/sdk.js';
import { generateInline, planFor, rowsOf } from '../generation/support.js';

/**
 * `ctx.setRef`: a row that chooses its parent by index gets the same output as one that sets the
 * parent's key string itself, in every format, for the rows of a flat table, of a per-parent table, and
 * as other tables see them through `lookup`.
 */
type Choice = 'setRef' | 'key';

const shopOf = (ctx: RowContext) => (ctx.index * 7 + 3) % ctx.rowsOf('shops');

function market(choice: Choice, misuse?: (ctx: RowContext) => void) {
  return definePack({
    name: 'market',
    version: '1.0.0',
    description: 'Shops, their sales, the sales a shop passed on, and audits of sales.',
    tables: {
      shops: {
        description: 'Shops.',
        default_rows: 13,
        credits_per_1000_rows: 1,
        columns: {
          shop_id: { type: 'id', prefix: 'shop', description: 'Key.' },
          size: { type: 'integer', distribution: 'uniform', min: 1, max: 9, description: 'Size.' },
        },
      },
      sales: {
        description: 'Sales, each at a shop the row chooses.',
        default_rows: 100,
        credits_per_1000_rows: 1,
        columns: {
          sale_id: { type: 'id', prefix: 'sale', description: 'Key.' },
          shop_id: { type: 'reference', table: 'shops', description: 'Chosen by the row.' },
          seen_as: { type: 'integer', computed: true, description: 'ctx.ref of the chosen column.' },
          amount: { type: 'decimal', scale: 2, min: 1, max: 99, description: 'Drawn after the choice.' },
        },
        row: (ctx) => {
          misuse?.(ctx);
          if (choice === 'key') return { shop_id: ctx.key('shops', shopOf(ctx)), seen_as: shopOf(ctx) };
          ctx.setRef('shop_id', shopOf(ctx));
          return { seen_as: ctx.ref('shop_id') };
        },
      },
      passes: {
        description: 'Per shop: the sale each of its passes goes on to.',
        default_rows: 60,
        credits_per_1000_rows: 1,
        per_parent: 'shops',
        columns: {
          shop_id: { type: 'reference', table: 'shops', description: 'The owning shop.' },
          next_sale_id: {
            type: 'reference',
            table: 'sales',
            nullable: true,
            null_rate: 0.2,
            description: 'Chosen by the row.',
          },
        },
        row: (ctx) => {
          const next = (ctx.parent * 5 + ctx.position) % ctx.rowsOf('sales');
          if (choice === 'key') return { next_sale_id: ctx.key('sales', next) };
          ctx.setRef('next_sale_id', next);
          return {};
        },
      },
      audits: {
        description: "Audits of sales, with the sale's shop as its lookup holds it.",
        default_rows: 50,
        credits_per_1000_rows: 1,
        columns: {
          sale_id: { type: 'reference', table: 'sales', description: 'The sale.' },
          sale_shop_id: { type: 'string', computed: true, description: "The sale's shop_id from ctx.lookup." },
        },
        row: (ctx) => ({ sale_shop_id: ctx.lookup('sales', ctx.ref('sale_id')).shop_id }),
      },
    },
  });
}

const TABLES = ['sales', 'passes', 'audits'];
const plan = (seed: number) => planFor(market('setRef'), { seed, tables: TABLES.map((name) => ({ name })) });

describe('ctx.setRef', () => {
  it('writes the same bytes as setting the key string, in every format, seen directly, per parent and through lookup', () => {
    fc.assert(
      fc.property(fc.nat(), (seed) => {
        for (const table of TABLES) {
          for (const format of FORMATS) {
            expect(generateInline(market('setRef'), plan(seed), table, format), `${table} ${format}`).to.equal(
              generateInline(market('key'), plan(seed), table, format),
            );
          }
        }
      }),
      { numRuns: 15 },
    );
  });

  it("writes the chosen row's key, and ctx.ref answers the chosen index", () => {
    const shops = rowsOf(generateInline(market('setRef'), plan(3), 'shops'));
    const sales = rowsOf(generateInline(market('setRef'), plan(3), 'sales'));
    expect(sales).to.have.length(100);
    sales.forEach((sale, index) => {
      const chosen = (index * 7 + 3) % shops.length;
      expect(sale.seen_as).to.equal(chosen);
      expect(sale.shop_id).to.equal(shops[chosen].shop_id);
    });
  });

  const refused = (misuse: (ctx: RowContext) => void) => () =>
    generateInline(market('setRef', misuse), plan(1), 'sales');

  it('refuses a column that is not a reference, and an index outside the referenced table', () => {
    expect(refused((ctx) => ctx.setRef('amount', 0))).to.throw(
      'table "sales": setRef("amount") — the column is not a reference column of the table',
    );
    expect(refused((ctx) => ctx.setRef('shop_id', 13))).to.throw(
      'table "sales": setRef("shop_id", 13) — the referenced table has rows 0 to 12',
    );
    expect(refused((ctx) => ctx.setRef('shop_id', 1.5))).to.throw('setRef("shop_id", 1.5)');
  });

  it("refuses the owning parent's column of a per-parent table, and a call outside row", () => {
    const pack = market('setRef');
    const owning = {
      ...pack,
      tables: {
        ...pack.tables,
        passes: { ...pack.tables.passes, row: (ctx: RowContext) => (ctx.setRef('shop_id', 0), {}) },
      },
    };
    expect(() => generateInline(owning, plan(1), 'passes')).to.throw(
      'table "passes": setRef("shop_id") — the column points at the owning parent, which the engine fills',
    );
    const early = {
      ...pack,
      tables: {
        ...pack.tables,
        passes: { ...pack.tables.passes, start: (ctx: RowContext) => ctx.setRef('next_sale_id', 0) },
      },
    };
    expect(() => generateInline(early, plan(1), 'passes')).to.throw(
      'table "passes": setRef("next_sale_id") is for the row being generated',
    );
  });
});
