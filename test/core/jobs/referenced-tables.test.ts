import { expect } from 'chai';
import { openAccount, request, startTestApp, type TestAccount, type TestApp } from '../../support/app.js';
import { download, pollJob } from './support/http.js';

type Row = Record<string, unknown>;

const rowsOf = (ndjson: string): Row[] =>
  ndjson
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Row);

describe('jobs deliver the tables their tables reference', () => {
  let app: TestApp;
  let account: TestAccount;

  before(async () => {
    app = await startTestApp();
    account = await openAccount(app);
  });
  after(() => app.close());

  async function runJob(output: Record<string, string>) {
    const created = await request(app, 'POST', '/v1/jobs', {
      key: account.live,
      body: {
        config: { version: 1, sector: 'cards', seed: 9, tables: [{ name: 'transactions', rows: 3000 }], output },
      },
    });
    expect(created.status, created.text).to.equal(202);
    const done = await pollJob(app, account.live, created.body.id, ['succeeded', 'failed']);
    expect(done.body.state, done.text).to.equal('succeeded');
    return { created, done };
  }

  it('by default: every card and merchant a transaction names is in a delivered file, and priced', async () => {
    const { created } = await runJob({ format: 'ndjson' });
    const estimated: { name: string; rows: number; credits: number }[] = created.body.estimate.tables;
    expect(estimated.map((table) => table.name)).to.deep.equal(['transactions', 'cards', 'merchants', 'cardholders']);
    expect(created.body.estimate.credits).to.equal(estimated.reduce((sum, table) => sum + table.credits, 0));

    const results = await request(app, 'GET', `/v1/jobs/${created.body.id}/results`, { key: account.live });
    const files: { table: string; rows: number }[] = results.body.data;
    expect(files.map((file) => file.table)).to.deep.equal(estimated.map((table) => table.name));
    const table = async (name: string) =>
      rowsOf((await download(app, account.live, `/v1/jobs/${created.body.id}/results/${name}`)).text);
    const [transactions, cards, merchants, cardholders] = await Promise.all(
      ['transactions', 'cards', 'merchants', 'cardholders'].map(table),
    );
    const ids = (rows: Row[], key: string) => new Set(rows.map((row) => row[key]));
    const cardIds = ids(cards, 'card_id');
    const merchantIds = ids(merchants, 'merchant_id');
    const holderIds = ids(cardholders, 'cardholder_id');
    expect(transactions).to.have.length(3000);
    expect(transactions.filter((row) => !cardIds.has(row.card_id))).to.deep.equal([]);
    expect(transactions.filter((row) => !merchantIds.has(row.merchant_id))).to.deep.equal([]);
    expect(cards.filter((row) => !holderIds.has(row.cardholder_id))).to.deep.equal([]);
  });

  it('with `referenced_tables: omit`: the listed tables only, the same bytes, charged for those only', async () => {
    const included = await runJob({ format: 'ndjson' });
    const omitted = await runJob({ format: 'ndjson', referenced_tables: 'omit' });
    expect(omitted.created.body.estimate.tables.map((table: { name: string }) => table.name)).to.deep.equal([
      'transactions',
    ]);
    const bytes = async (jobId: string) =>
      (await download(app, account.live, `/v1/jobs/${jobId}/results/transactions`)).bytes;
    expect((await bytes(omitted.created.body.id)).equals(await bytes(included.created.body.id))).to.equal(true);
    expect(omitted.done.body.credits_charged).to.equal(omitted.created.body.estimate.tables[0].credits);
    const cards = await download(app, account.live, `/v1/jobs/${omitted.created.body.id}/results/cards`);
    expect(cards.status).to.equal(404);
  });
});
