import { expect } from 'chai';
import { openAccount, request, startTestApp, type TestAccount, type TestApp } from '../../support/app.js';

describe('catalog API over HTTP', () => {
  let app: TestApp;
  let account: TestAccount;

  before(async () => {
    app = await startTestApp();
    account = await openAccount(app);
  });
  after(() => app.close());

  it('lists the sector packs with their tables and row costs, the data types, and the quick-generation limits', async () => {
    const response = await request(app, 'GET', '/v1/catalog', { key: account.test });
    expect(response.status).to.equal(200);
    expect(response.headers.get('content-type')).to.equal('application/json; charset=utf-8');
    const cards = response.body.sectors.find((sector: { name: string }) => sector.name === 'cards');
    expect(cards).to.include({ name: 'cards' });
    expect(cards.version).to.match(/^\d+\.\d+\.\d+/);
    const transactions = cards.tables.find((table: { name: string }) => table.name === 'transactions');
    expect(transactions).to.include({ credits_per_1000_rows: 2 });
    expect(transactions.parents).to.include.members(['cards', 'merchants']);
    expect(response.body.types.map((type: { name: string }) => type.name)).to.include.members([
      'iban',
      'pan',
      'money',
      'enum',
    ]);
    expect(response.body).to.include({ default_locale: 'en_GB', default_as_of: '2025-12-31' });
    expect(response.body.limits.quick).to.deep.equal({
      max_rows_per_table: 10000,
      max_rows_per_request: 50000,
      max_tables: 10,
      max_walked_parents: 100000,
    });
  });

  it('gives one sector and one table schema with columns, references and options', async () => {
    const sector = await request(app, 'GET', '/v1/catalog/sectors/cards', { key: account.live });
    expect(sector.status).to.equal(200);
    expect(sector.body.tables.map((table: { name: string }) => table.name)).to.include('transactions');
    const table = await request(app, 'GET', '/v1/catalog/sectors/cards/tables/transactions', { key: account.live });
    expect(table.status).to.equal(200);
    expect(table.body).to.include({ name: 'transactions', generated_per: 'cards' });
    expect(table.body.columns.find((column: { name: string }) => column.name === 'card_id')).to.include({
      type: 'reference',
    });
    // Keys and references are shown with the prefix of the table they key.
    const examples = Object.fromEntries(
      table.body.columns.map((column: { name: string; example: unknown }) => [column.name, column.example]),
    );
    expect(examples).to.include({
      transaction_id: 'txn_3f9a0c1be47d2a65',
      card_id: 'card_a1b2c3d4e5f60718',
      merchant_id: 'mer_a1b2c3d4e5f60718',
    });
    expect(table.body.references).to.deep.include({ column: 'card_id', table: 'cards' });
    expect(table.body.options.find((option: { name: string }) => option.name === 'fraud_rate')).to.deep.include({
      default: 0.002,
      schema: { type: 'number', minimum: 0, maximum: 0.5 },
    });
    const types = await request(app, 'GET', '/v1/catalog/types', { key: account.live });
    expect(types.body).to.include({ has_more: false, next_cursor: null });
    expect(types.body.data.find((type: { name: string }) => type.name === 'enum').overridable).to.deep.equal([
      'weights',
    ]);
  });

  it('answers unknown sectors and tables with 404 problems', async () => {
    const sector = await request(app, 'GET', '/v1/catalog/sectors/crypto', { key: account.live });
    expect(sector.status).to.equal(404);
    expect(sector.body).to.include({
      type: 'https://errors.finsynth.dev/not-found',
      instance: '/v1/catalog/sectors/crypto',
    });
    expect(sector.body.detail).to.match(/cards/);
    const table = await request(app, 'GET', '/v1/catalog/sectors/cards/tables/loans', { key: account.live });
    expect(table.status).to.equal(404);
    expect(table.headers.get('content-type')).to.match(/^application\/problem\+json/);
    // The one name every object inherits that the path's pattern lets through.
    expect(
      (await request(app, 'GET', '/v1/catalog/sectors/cards/tables/constructor', { key: account.live })).status,
    ).to.equal(404);
  });

  it('sends an ETag and answers 304 to If-None-Match, for each catalog resource', async () => {
    for (const path of [
      '/v1/catalog',
      '/v1/catalog/types',
      '/v1/catalog/sectors/cards',
      '/v1/catalog/sectors/cards/tables/cards',
    ]) {
      const first = await request(app, 'GET', path, { key: account.live });
      const etag = first.headers.get('etag');
      expect(etag, path).to.match(/^"[A-Za-z0-9_-]+"$/);
      expect(first.headers.get('cache-control')).to.equal('private, no-cache');
      const again = await request(app, 'GET', path, {
        key: account.live,
        headers: { 'if-none-match': `"other", ${etag}` },
      });
      expect(again.status, path).to.equal(304);
      expect(again.text).to.equal('');
      const changed = await request(app, 'GET', path, { key: account.live, headers: { 'if-none-match': '"stale"' } });
      expect(changed.status).to.equal(200);
      expect(changed.headers.get('etag')).to.equal(etag);
    }
  });

  it('needs a key with catalog:read', async () => {
    expect((await request(app, 'GET', '/v1/catalog')).status).to.equal(401);
    const narrow = await request(app, 'POST', '/v1/keys', { key: account.live, body: { scopes: ['generate'] } });
    const refused = await request(app, 'GET', '/v1/catalog', { key: narrow.body.secret });
    expect(refused.status).to.equal(403);
  });
});
