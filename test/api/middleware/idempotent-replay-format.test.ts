import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { openAccount, request, startTestApp } from '../../support/app.js';
import type { TestAccount, TestApp, TestResponse } from '../../support/app.js';
import type { JsonBody } from '../../support/json-body.js';
import { ExchangeChecker } from '../../core/jobs/support/documented.js';

const ERRORS = 'https://errors.finsynth.dev';
/** 100 merchants: 1 credit. */
const body = { sector: 'cards', seed: 3, tables: [{ name: 'merchants', rows: 100 }] };

/**
 * A repeat under an Idempotency-Key is answered with the first response as it was sent: never in
 * another format, and never by doing the work again in the format the repeat asks for. A repeat whose
 * Accept does not admit the first response's format is refused with 406, and can be sent again.
 */
describe('an idempotent replay and the Accept of the repeat', () => {
  let app: TestApp;
  let account: TestAccount;
  let checker: ExchangeChecker;

  before(async () => {
    app = await startTestApp();
    account = await openAccount(app, { credits: 100 });
    checker = new ExchangeChecker((await request(app, 'GET', '/v1/openapi.json')).body);
  });
  after(() => app?.close());

  async function quick(idempotencyKey: string, accept: string, key = account.live): Promise<TestResponse> {
    const headers = { 'idempotency-key': idempotencyKey };
    // Accept is no parameter of an OpenAPI operation (the media types of its responses say what it answers).
    const response = await request(app, 'POST', '/v1/generate/quick', { key, body, headers: { ...headers, accept } });
    return checker.check('POST', '/v1/generate/quick', response, headers);
  }
  const balance = async (): Promise<number> => {
    return (await request(app, 'GET', '/v1/billing/credits', { key: account.live })).body.credits_available;
  };

  it('replays a CSV answer to a repeat admitting CSV; refuses one asking for JSON only (406)', async () => {
    const key = randomUUID();
    const before = await balance();
    const first = await quick(key, 'text/csv');
    expect(first.status).to.equal(200);
    expect(first.headers.get('content-type')).to.match(/^text\/csv/);
    expect(await balance()).to.equal(before - 1);

    const refused = await quick(key, 'application/json');
    expect(refused.status).to.equal(406);
    expect(refused.headers.get('content-type')).to.equal('application/problem+json');
    expect(refused.body.type).to.equal(`${ERRORS}/idempotent-replay-not-acceptable`);
    expect(refused.body.supported).to.deep.equal(['text/csv']);
    expect(refused.headers.get('idempotent-replayed')).to.equal(null);

    for (const accept of ['text/csv', '*/*', 'text/*', 'application/json, text/csv;q=0.1']) {
      const replayed = await quick(key, accept);
      expect(replayed.status, accept).to.equal(200);
      expect(replayed.headers.get('idempotent-replayed'), accept).to.equal('true');
      expect(replayed.headers.get('content-type'), accept).to.equal(first.headers.get('content-type'));
      expect(replayed.text, accept).to.equal(first.text);
    }
    // Neither the refusal nor the replays were charged or recorded anew.
    expect(await balance()).to.equal(before - 1);
    const records = await request(app, 'GET', '/v1/usage/records', { key: account.live });
    const references = records.body.data.map((record: { reference: string }) => record.reference);
    expect(references.filter((reference: string) => reference === first.headers.get('request-id'))).to.have.length(1);
  });

  it('refuses a repeat asking for NDJSON of a first request answered as JSON (the default), naming JSON', async () => {
    const key = randomUUID();
    const first = await quick(key, '*/*');
    expect(first.headers.get('content-type')).to.match(/^application\/json/);
    const refused = await quick(key, 'application/x-ndjson');
    expect(refused.status).to.equal(406);
    expect(refused.body.supported).to.deep.equal(['application/json']);
    expect(refused.body.detail).to.equal(
      'the first request with this Idempotency-Key was answered as application/json, ' +
        "which this repeat's Accept (application/x-ndjson) does not admit; repeat it accepting application/json",
    );
    expect((await quick(key, 'application/json')).body).to.deep.equal(first.body);
  });

  it("replays a kept problem whatever the repeat accepts, as first requests' problems are problem+json", async () => {
    const poor = await openAccount(app, { credits: 0 });
    const key = randomUUID();
    const first = await quick(key, 'text/csv', poor.live);
    expect(first.status).to.equal(402);
    const replayed = await quick(key, 'application/x-ndjson', poor.live);
    expect(replayed.status).to.equal(402);
    expect(replayed.headers.get('idempotent-replayed')).to.equal('true');
    expect(replayed.body).to.deep.equal(first.body);
  });

  it('replays an operation that has one format whatever Accept says, as its first request was answered', async () => {
    const headers = { accept: 'text/csv', 'idempotency-key': randomUUID() };
    const body = { name: 'seeded', overlay: { seed: 1 } };
    const save = () => request(app, 'POST', '/v1/overlays', { key: account.live, body, headers });
    const first = await save();
    expect(first.status).to.equal(201);
    const replayed = await save();
    expect(replayed.status).to.equal(201);
    expect(replayed.headers.get('idempotent-replayed')).to.equal('true');
    expect(replayed.body).to.deep.equal(first.body);
  });

  it('documents the 406 on the operations that negotiate their format, and only there', async () => {
    const { body: document } = await request(app, 'GET', '/v1/openapi.json');
    const negotiating: string[] = [];
    for (const [path, operations] of Object.entries(document.paths as Record<string, Record<string, JsonBody>>)) {
      for (const [method, operation] of Object.entries(operations)) {
        const slugs: string[] = operation.responses['406']?.['x-problem-slugs'] ?? [];
        if (slugs.includes('idempotent-replay-not-acceptable')) negotiating.push(`${method} ${path}`);
      }
    }
    expect(negotiating).to.deep.equal(['post /v1/generate/quick']);
  });
});
