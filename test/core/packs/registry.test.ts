import { expect } from 'chai';
import { packCatalog } from '../../../core/catalog/packs-for-configs.js';
import { loadPacks } from '../../../core/packs/loader.js';
import { ProblemError } from '../../../core/problems.js';

describe('the pack registry (catalog descriptions)', () => {
  it('describes packs, tables, columns, references, options and data types as JSON', async () => {
    const registry = await loadPacks();
    const catalog = registry.describe();
    expect(catalog.sectors.map((sector) => sector.name)).to.include('cards');
    const transactions = registry.describeTable('cards', 'transactions')!;
    expect(transactions).to.include({
      name: 'transactions',
      default_rows: 60000,
      credits_per_1000_rows: 2,
      generated_per: 'cards',
    });
    expect(transactions.references).to.deep.equal([
      { column: 'card_id', table: 'cards' },
      { column: 'merchant_id', table: 'merchants' },
    ]);
    const amount = transactions.columns.find((column) => column.name === 'amount')!;
    expect(amount).to.include({ type: 'money', nullable: false });
    expect(amount.overridable).to.include.members(['distribution', 'mu', 'sigma', 'null_rate']);
    expect(transactions.columns.find((column) => column.name === 'transaction_id')!.overridable).to.deep.equal([]);
    expect(transactions.options.find((option) => option.name === 'fraud_rate')).to.deep.include({
      default: 0.002,
      schema: { type: 'number', minimum: 0, maximum: 0.5 },
    });
    const iban = catalog.data_types.find((type) => type.name === 'iban')!;
    expect(iban).to.include({ json_type: 'string' });
    expect(iban.params.type).to.equal('object');
    expect(JSON.parse(JSON.stringify(catalog))).to.deep.equal(catalog);
  });

  it('marks computed columns (only null_rate overridable) and tables whose parents decide their rows', async () => {
    const registry = await loadPacks();
    const schedule = registry.describeTable('lending', 'repayment_schedule')!;
    expect(schedule).to.include({ generated_per: 'loans', rows_per_parent: true });
    expect(schedule.columns.find((column) => column.name === 'due_date')).to.deep.include({
      computed: true,
      params: {},
      overridable: ['null_rate'],
    });
    const loans = registry.describeTable('lending', 'loans')!;
    expect(loans.rows_per_parent).to.equal(false);
    expect(loans.columns.find((column) => column.name === 'principal')).to.deep.include({ computed: false });
    expect(registry.describeTable('cards', 'transactions')!.rows_per_parent).to.equal(false);
    // the config rules see the same: a null rate on a computed date is a valid override, its range is not one
    const dueDate = packCatalog(registry)
      .tables('lending')!
      .find((table) => table.name === 'repayment_schedule')!
      .columns.find((column) => column.name === 'due_date')!;
    expect(dueDate.overridable).to.deep.equal(['null_rate']);
    expect(dueDate.checkOverride({})).to.deep.equal([]);
  });

  it('answers unknown-sector for a sector it does not have, and undefined for an unknown table', async () => {
    const registry = await loadPacks();
    expect(registry.describeTable('cards', 'loans')).to.equal(undefined);
    let error: unknown;
    try {
      registry.describePack('astrology');
    } catch (caught) {
      error = caught;
    }
    expect(error).to.be.instanceOf(ProblemError);
    expect((error as ProblemError).type.slug).to.equal('unknown-sector');
  });
});
