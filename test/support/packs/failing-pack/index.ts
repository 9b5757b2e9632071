import { definePack } from '../../../../core/packs/sdk.js';

/** A third-party pack whose generator always throws: quick generation charges, fails, and must refund. */
export default definePack({
  name: 'failing',
  version: '1.0.0',
  description: 'A pack whose generator fails on every row (credits tests).',
  tables: {
    entries: {
      description: 'Never produced.',
      default_rows: 100,
      credits_per_1000_rows: 5,
      columns: { entry_id: { type: 'id', prefix: 'ent', description: 'Key of the entry.' } },
      row() {
        throw new Error('the failing pack fails on every row');
      },
    },
    verbose_entries: {
      description: 'Never produced either; the error says so at length.',
      default_rows: 100,
      credits_per_1000_rows: 5,
      columns: { entry_id: { type: 'id', prefix: 'ven', description: 'Key of the entry.' } },
      row() {
        throw new Error(`the failing pack fails on every row, and says so at length: ${'and again '.repeat(100)}`);
      },
    },
  },
});
