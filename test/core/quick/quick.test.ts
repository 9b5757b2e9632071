import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { openAccount, request, startTestApp, type TestAccount, type TestApp } from '../../support/app.js';

const ERRORS = 'https://errors.finsynth.dev';
const transactions = (rows: number, extra: Record<string, unknown> = {}) => ({
  sector: 'cards',
  tables: [{ name: 'transactions', rows }],
  ...extra,
});

describe('quick generation over HTTP', () => {
  let app: TestApp;
  let account: TestAccount;
  const quick = (key: string, body: unknown, accept?: string) =>
    request(app, 'POST', '/v1/generate/quick', { key, body, headers: accept ? { accept } : {} });
  /** NDJSON is not one JSON document: read as text (the shared helper parses every *json* media type). */
  const quickNdjson = async (key: string, body: unknown) => {
    const response = await fetch(`${app.url}/v1/generate/quick`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/x-ndjson' },
      body: JSON.stringify(body),
    });
    return { status: response.status, headers: response.headers, text: await response.text() };
  };
  const balance = async (key: string) =>
    (await request(app, 'GET', '/v1/billing/credits', { key })).body.credits_available as number;

  before(async () => {
    app = await startTestApp();
    account = await openAccount(app, { credits: 10 });
  });
  after(() => app.close());

  it('answers JSON by default with the rows, the seed, the row count, the charge and the mode', async () => {
    const response = await quick(account.test, transactions(300, { seed: 7 }));
    expect(response.status).to.equal(200);
    expect(response.headers.get('content-type')).to.match(/^application\/json/);
    expect(response.body).to.include({ sector: 'cards', seed: 7, rows: 300, credits_charged: 0, mode: 'test' });
    expect(Object.keys(response.body.tables)).to.deep.equal(['transactions']);
    const rows = response.body.tables.transactions;
    expect(rows).to.have.length(300);
    expect(rows[0]).to.include.keys('transaction_id', 'card_id', 'amount', 'currency');
    expect(response.headers.get('finsynth-seed')).to.equal('7');
  });

  it('is reproducible: the same seed gives the same bytes; without one, the seed drawn is returned', async () => {
    const first = await quick(account.test, transactions(200, { seed: 99 }));
    const again = await quick(account.test, transactions(200, { seed: 99 }));
    expect(again.text).to.equal(first.text);
    const drawn = await quick(account.test, transactions(50));
    expect(drawn.body.seed).to.be.a('number');
    const replayed = await quick(account.test, transactions(50, { seed: drawn.body.seed }));
    expect(replayed.body.tables).to.deep.equal(drawn.body.tables);
  });

  it('returns only the requested tables; their references point into the parents a request would return', async () => {
    const alone = await quick(account.test, transactions(100, { seed: 3 }));
    expect(Object.keys(alone.body.tables)).to.deep.equal(['transactions']);
    const both = await quick(account.test, {
      sector: 'cards',
      seed: 3,
      tables: [
        { name: 'cards', rows: 50 },
        { name: 'transactions', rows: 100 },
      ],
    });
    expect(Object.keys(both.body.tables)).to.deep.equal(['cards', 'transactions']);
    const cardIds = new Set(both.body.tables.cards.map((card: { card_id: string }) => card.card_id));
    for (const row of both.body.tables.transactions) expect(cardIds.has(row.card_id), row.card_id).to.equal(true);
  });

  it("answers NDJSON: a table's rows, or `{table, row}` lines for several tables", async () => {
    const one = await quickNdjson(account.test, transactions(20, { seed: 1 }));
    expect(one.headers.get('content-type')).to.match(/^application\/x-ndjson/);
    const lines = one.text
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines).to.have.length(20);
    expect(lines[0]).to.include.keys('transaction_id');
    const json = await quick(account.test, transactions(20, { seed: 1 }));
    expect(lines).to.deep.equal(json.body.tables.transactions);

    const several = await quickNdjson(account.test, {
      sector: 'cards',
      seed: 1,
      tables: [
        { name: 'cardholders', rows: 3 },
        { name: 'merchants', rows: 2 },
      ],
    });
    const envelopes = several.text
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(envelopes.map((line) => line.table)).to.deep.equal([
      'cardholders',
      'cardholders',
      'cardholders',
      'merchants',
      'merchants',
    ]);
    expect(envelopes[3].row).to.include.keys('merchant_id');
  });

  it('answers CSV for one table, and 406 for several tables or an Accept it cannot meet', async () => {
    const csv = await quick(account.test, transactions(10, { seed: 2 }), 'text/csv');
    expect(csv.status).to.equal(200);
    expect(csv.headers.get('content-type')).to.match(/^text\/csv/);
    const lines = csv.text.trimEnd().split(/\r?\n/);
    expect(lines).to.have.length(11);
    expect(lines[0].split(',')).to.include('transaction_id');

    const several = await quick(
      account.test,
      {
        sector: 'cards',
        tables: [
          { name: 'cards', rows: 1 },
          { name: 'merchants', rows: 1 },
        ],
      },
      'text/csv',
    );
    expect(several.status).to.equal(406);
    expect(several.body).to.include({ type: `${ERRORS}/not-acceptable`, instance: '/v1/generate/quick' });
    expect(several.body.supported).to.deep.equal(['application/json', 'application/x-ndjson']);
    expect((await quick(account.test, transactions(1), 'application/xml')).status).to.equal(406);
  });

  it('plants laundering motifs at a rate of the accounts, answering and estimating the rows the rate sets', async () => {
    const motifs = {
      sector: 'banking',
      seed: 3,
      tables: [
        { name: 'accounts', rows: 600 },
        { name: 'transactions', rows: 3_000 },
        { name: 'aml_motifs', rows: 1_000 },
      ],
      options: { aml_motifs: { per_1000_accounts: 10 } },
    };
    const response = await quick(account.test, motifs);
    expect(response.status).to.equal(200);
    // 10 per 1,000 of 600 accounts: 6 motifs, though the table may have up to 1,000 rows.
    expect(response.body.tables.aml_motifs).to.have.length(6);
    const [accounts, transactions, aml] = motifs.tables;
    const config = {
      version: 1,
      sector: 'banking',
      tables: [accounts, transactions, { ...aml, options: { per_1000_accounts: 10 } }],
    };
    const estimate = await request(app, 'POST', '/v1/configs/estimate', { key: account.test, body: { config } });
    expect(estimate.status).to.equal(200);
    expect(estimate.body.tables.find((table: { name: string }) => table.name === 'aml_motifs')).to.include({ rows: 6 });
    expect(response.body.rows).to.equal(600 + 3_000 + 6);
    const refused = await quick(account.test, { ...motifs, options: { aml_motifs: { per_1000_accounts: 100 } } });
    expect(refused.status).to.equal(400);
    expect(refused.body.type).to.equal(`${ERRORS}/invalid-config`);
  });

  it('refuses more than 10,000 rows of a table with a 400 that points at the jobs API', async () => {
    const perTable = await quick(account.test, transactions(10_001));
    expect(perTable.status).to.equal(400);
    expect(perTable.body).to.include({ type: `${ERRORS}/quick-limit-exceeded`, jobs_url: '/v1/jobs' });
    expect(perTable.body.detail).to.match(/POST \/v1\/jobs/);
    const openapi = JSON.parse((await request(app, 'GET', '/v1/openapi.json', { key: account.test })).text);
    expect(openapi.paths['/v1/generate/quick'].post.description).to.match(
      /at most 10000 rows per table and 50000 per request/,
    );
  });

  it('refuses a table named twice, at the repeated name, before any limit (as jobs and saved configs do)', async () => {
    // 54,000 rows, which would be past the per-request limit if the tables were distinct.
    const tables = ['cardholders', 'cards', 'merchants', 'transactions', 'cards', 'merchants'].map((name) => ({
      name,
      rows: 9_000,
    }));
    const body = JSON.stringify({ sector: 'cards', tables }, null, 1);
    const repeated = await request(app, 'POST', '/v1/generate/quick', {
      key: account.test,
      body,
      headers: { 'content-type': 'application/json' },
    });
    expect(repeated.status).to.equal(400);
    expect(repeated.body.type).to.equal(`${ERRORS}/invalid-config`);
    expect(repeated.body.errors).to.deep.equal([
      { pointer: '/tables/4/name', message: 'the table "cards" is listed twice', line: 21, column: 12 },
      { pointer: '/tables/5/name', message: 'the table "merchants" is listed twice', line: 25, column: 12 },
    ]);
  });

  it('reaches through at most 100,000 parents for a table whose parents decide its rows, and says a job reaches further', async () => {
    const claims = (rows: number, frequency_factor: number) => ({
      sector: 'insurance',
      tables: [{ name: 'claims', rows }],
      options: { claims: { frequency_factor } },
      seed: 3,
    });
    const within = await quick(account.test, claims(2_000, 0.2), 'application/x-ndjson');
    expect(within.status, within.text).to.equal(200);
    expect(within.text.trimEnd().split('\n')).to.have.length(2_000);
    const beyond = await quick(account.test, claims(10_000, 0.1));
    expect(beyond.status).to.equal(400);
    expect(beyond.body).to.include({ type: `${ERRORS}/invalid-plan`, max_walked_parents: 100_000 });
    expect(beyond.body.detail).to.match(/at most 100000 of them \(a job may reach through 10000000\)/);
  });

  it('refuses unknown sectors, tables and options with problems that say what exists', async () => {
    const sector = await quick(account.test, { sector: 'crypto', tables: [{ name: 'coins', rows: 1 }] });
    expect(sector.status).to.equal(400);
    expect(sector.body.type).to.equal(`${ERRORS}/unknown-sector`);
    expect(sector.body.errors).to.have.length(1);
    expect(sector.body.errors[0].message).to.match(/^unknown sector "crypto"; known: .*cards/);
    const table = await quick(account.test, { sector: 'cards', tables: [{ name: 'loans', rows: 1 }] });
    expect(table.body.type).to.equal(`${ERRORS}/invalid-config`);
    const option = await quick(account.test, transactions(1, { options: { transactions: { fraud_rate: 3 } } }));
    expect(option.body.errors[0]).to.include({ pointer: '/tables/0/options/fraud_rate' });
    expect((await quick(account.test, { sector: 'cards', tables: [{ name: 'cards', rows: 0 }] })).status).to.equal(400);
  });

  it('takes an as-of date as a config does, and refuses one that is not a calendar day at /as_of', async () => {
    const dated = await quick(account.test, transactions(20, { seed: 5, as_of: '2025-06-30' }));
    expect(dated.status, dated.text).to.equal(200);
    const wrong = await quick(account.test, transactions(20, { as_of: '2025-06-31' }));
    expect(wrong.status).to.equal(400);
    expect(wrong.body.errors.map((error: { pointer: string }) => error.pointer)).to.deep.equal(['/as_of']);
  });

  it('takes per-column overrides in each table, as a config does, and says where a wrong one is', async () => {
    // Without fraud, whose patterns pick entry modes of their own (card testing is online).
    const table = (columns: unknown) => ({
      sector: 'cards',
      seed: 4,
      tables: [{ name: 'transactions', rows: 400, columns }],
      options: { transactions: { fraud_rate: 0 } },
    });
    const modes = (body: { tables: { transactions: { entry_mode: string }[] } }) =>
      new Set(body.tables.transactions.map((row) => row.entry_mode));
    const plain = await quick(account.test, table(undefined));
    const weights = { chip: 0, contactless: 0, online: 0, magstripe: 1 };
    const swiped = await quick(account.test, table({ entry_mode: { weights } }));
    expect(swiped.status, swiped.text).to.equal(200);
    expect([...modes(swiped.body)]).to.deep.equal(['magstripe']);
    expect(modes(plain.body).size).to.be.above(2);
    const unknown = await quick(account.test, table({ nope: { null_rate: 0.5 } }));
    expect(unknown.status).to.equal(400);
    expect(unknown.body.errors[0]).to.include({ pointer: '/tables/0/columns/nope' });
  });

  it('charges a live key the estimate, never a test key, and refuses with 402 when short, changing nothing', async () => {
    const before = await balance(account.live);
    const sandbox = await quick(account.test, transactions(1000));
    expect(sandbox.body.credits_charged).to.equal(0);
    expect(await balance(account.live)).to.equal(before);

    const live = await quick(account.live, transactions(1000));
    expect(live.status).to.equal(200);
    expect(live.body).to.include({ credits_charged: 2, mode: 'live' });
    expect(live.headers.get('finsynth-credits-charged')).to.equal('2');
    expect(await balance(account.live)).to.equal(before - 2);

    const short = await quick(account.live, transactions(10_000));
    expect(short.status).to.equal(402);
    expect(short.body).to.include({
      type: `${ERRORS}/insufficient-credits`,
      title: 'Insufficient Credits',
      credits_required: 20,
      credits_available: before - 2,
    });
    expect(await balance(account.live)).to.equal(before - 2);
  });
});

describe('quick generation of a pack with more tables than the built-in ones', () => {
  let app: TestApp;
  let account: TestAccount;
  const six = (rows: number) => ({
    sector: 'wide',
    tables: ['one', 'two', 'three', 'four', 'five', 'six'].map((name) => ({ name, rows })),
  });
  before(async () => {
    app = await startTestApp({ config: { packs: [fileURLToPath(new URL('./fixtures/wide/', import.meta.url))] } });
    account = await openAccount(app);
  });
  after(() => app.close());

  it('answers 50,000 rows of distinct tables, and refuses more with a 400 that points at the jobs API', async () => {
    const atTheLimit = await request(app, 'POST', '/v1/generate/quick', {
      key: account.test,
      body: { ...six(10_000), tables: six(10_000).tables.slice(1) },
    });
    expect(atTheLimit.status, atTheLimit.text.slice(0, 300)).to.equal(200);
    expect(atTheLimit.body.rows).to.equal(50_000);
    const beyond = await request(app, 'POST', '/v1/generate/quick', { key: account.test, body: six(9_000) });
    expect(beyond.status).to.equal(400);
    expect(beyond.body).to.include({ type: `${ERRORS}/quick-limit-exceeded`, jobs_url: '/v1/jobs' });
    expect(beyond.body.detail).to.equal(
      'the request asks for 54000 rows; quick generation returns at most 50000 per request. ' +
        'Use the jobs API (POST /v1/jobs) for more.',
    );
    expect(beyond.body.limits).to.include({ max_rows_per_table: 10_000, max_rows_per_request: 50_000 });
  });
});

describe('quick generation when the generator fails', () => {
  let app: TestApp;
  let account: TestAccount;
  before(async () => {
    const faulty = fileURLToPath(new URL('../generation/fixtures/faulty/', import.meta.url));
    app = await startTestApp({ config: { packs: [faulty] } });
    account = await openAccount(app, { credits: 10 });
  });
  after(() => app.close());

  it('answers the generation problem and refunds the debit, live and sandbox alike', async () => {
    for (const key of [account.live, account.test]) {
      const response = await request(app, 'POST', '/v1/generate/quick', {
        key,
        body: { sector: 'faulty', tables: [{ name: 'throws', rows: 5 }] },
      });
      expect(response.status).to.equal(500);
      expect(response.body).to.include({ type: `${ERRORS}/generation-failed` });
      expect(response.body.detail).to.match(/broke on purpose/);
    }
    expect((await request(app, 'GET', '/v1/billing/credits', { key: account.live })).body.credits_available).to.equal(
      10,
    );
    const movements = (await app.services.store.readStream(`account-${account.accountId}`)).map((event) => [
      event.type,
      (event.data as { mode?: string }).mode,
    ]);
    expect(movements.filter(([type]) => type === 'CreditsDebited' || type === 'CreditsRefunded')).to.deep.equal([
      ['CreditsDebited', 'live'],
      ['CreditsRefunded', 'live'],
      ['CreditsDebited', 'test'],
      ['CreditsRefunded', 'test'],
    ]);
  });
});
