import { expect } from 'chai';
import { gunzipSync } from 'node:zlib';
import { rm } from 'node:fs/promises';
import {
  request,
  openAccount,
  startTestApp,
  type TestAccount,
  type TestApp,
  type TestResponse,
} from '../../support/app.js';
import { ExchangeChecker } from './support/documented.js';
import { cardsConfig, countRows, download, pollJob, sha256 } from './support/http.js';

describe('jobs over HTTP', function () {
  // Bounds, not assertions: the pool's workers start slowly on a loaded machine.
  this.timeout(120_000);
  let app: TestApp;
  let account: TestAccount;
  let checker: ExchangeChecker;
  /**
   * The answers below are also checked against the OpenAPI document the service publishes: status, body,
   * problem slug, headers.
   */
  const documented = <Response extends TestResponse>(
    method: string,
    template: string,
    response: Response,
    sent?: Record<string, string>,
  ): Response => checker.check(method, template, response, sent) as Response;
  const RESULT = '/v1/jobs/{id}/results/{table}';
  /** A download of a result file, checked against the document (the request headers it sent too). */
  const documentedDownload = async (key: string, url: string, headers: Record<string, string> = {}) =>
    documented('GET', RESULT, await download(app, key, url, headers), headers);

  before(async () => {
    app = await startTestApp();
    account = await openAccount(app, { credits: 1000 });
    checker = new ExchangeChecker((await request(app, 'GET', '/v1/openapi.json')).body);
  });
  after(() => app.close());

  it('the whole life with a live key: create, poll, list the files, download them, credits settled', async () => {
    const config = cardsConfig({ transactions: 20_000, merchants: 500 }, { format: 'csv' });
    const created = documented(
      'POST',
      '/v1/jobs',
      await request(app, 'POST', '/v1/jobs', { key: account.live, body: { config } }),
    );
    expect(created.status, created.text).to.equal(202);
    expect(created.headers.get('location')).to.equal(`/v1/jobs/${created.body.id}`);
    expect(created.body).to.include({ object: 'job', mode: 'live', sector: 'cards' });
    expect(['queued', 'running']).to.include(created.body.state);
    expect(created.body.estimate).to.deep.equal({
      credits: 41,
      tables: [
        { name: 'transactions', rows: 20_000, credits: 40 },
        { name: 'merchants', rows: 500, credits: 1 },
      ],
    });
    expect(created.body.links.results).to.equal(`/v1/jobs/${created.body.id}/results`);
    expect(await app.services.credits.balance(account.accountId)).to.deep.equal({
      credits_available: 959,
      credits_reserved: 41,
    });

    const done = documented(
      'GET',
      '/v1/jobs/{id}',
      await pollJob(app, account.live, created.body.id, ['succeeded', 'failed']),
    );
    expect(done.body.state, JSON.stringify(done.body.failure)).to.equal('succeeded');
    expect(done.body.progress).to.include({ rows_done: 20_500, rows_total: 20_500 });
    expect(done.body.credits_charged).to.equal(41);

    const results = documented(
      'GET',
      '/v1/jobs/{id}/results',
      await request(app, 'GET', `/v1/jobs/${created.body.id}/results`, { key: account.live }),
    );
    expect(results.status).to.equal(200);
    expect(results.body.data.map((file: { table: string; rows: number }) => [file.table, file.rows])).to.deep.equal([
      ['transactions', 20_000],
      ['merchants', 500],
    ]);
    for (const file of results.body.data) {
      const body = await documentedDownload(account.live, file.download_url);
      expect(body.status).to.equal(200);
      expect(body.headers.get('content-type')).to.match(/^text\/csv/);
      expect(Number(body.headers.get('content-length'))).to.equal(file.bytes);
      expect(body.headers.get('etag')).to.equal(`"${file.sha256}"`);
      expect(sha256(body.bytes)).to.equal(file.sha256);
      expect(countRows(body.bytes.toString(), 'csv')).to.equal(file.rows);
    }
    expect(await app.services.credits.balance(account.accountId)).to.deep.equal({
      credits_available: 959,
      credits_reserved: 0,
    });
  });

  it('the whole life with a test key: gzip NDJSON, nothing charged, invisible to live keys', async () => {
    const before = await app.services.credits.balance(account.accountId);
    const config = cardsConfig({ cards: 3000 }, { format: 'ndjson', compression: 'gzip' }, 7);
    const created = await request(app, 'POST', '/v1/jobs', { key: account.test, body: { config } });
    expect(created.status, created.text).to.equal(202);
    expect(created.body.mode).to.equal('test');
    const done = await pollJob(app, account.test, created.body.id, ['succeeded', 'failed']);
    expect(done.body.state).to.equal('succeeded');
    expect(done.body.credits_charged, 'a test key is charged nothing').to.equal(0);

    const [file] = (await request(app, 'GET', `/v1/jobs/${created.body.id}/results`, { key: account.test })).body.data;
    expect(file).to.include({ table: 'cards', format: 'ndjson', compression: 'gzip', rows: 3000 });
    const body = await download(app, account.test, file.download_url);
    expect(body.headers.get('content-type')).to.equal('application/gzip');
    expect(body.headers.get('content-disposition')).to.equal('attachment; filename="cards.ndjson.gz"');
    expect(sha256(body.bytes)).to.equal(file.sha256);
    expect(countRows(gunzipSync(body.bytes).toString(), 'ndjson')).to.equal(3000);
    expect(await app.services.credits.balance(account.accountId)).to.deep.equal(before);

    expect((await request(app, 'GET', `/v1/jobs/${created.body.id}`, { key: account.live })).status).to.equal(404);
    const liveList = await request(app, 'GET', '/v1/jobs', { key: account.live });
    expect(liveList.body.data.map((job: { id: string }) => job.id)).not.to.include(created.body.id);
  });

  it('downloads resume with byte ranges; a range past the end is a 416 problem; a current copy is a 304', async () => {
    const created = await request(app, 'POST', '/v1/jobs', {
      key: account.test,
      body: { config: cardsConfig({ merchants: 2000 }, { format: 'csv' }) },
    });
    await pollJob(app, account.test, created.body.id, ['succeeded']);
    const [file] = (await request(app, 'GET', `/v1/jobs/${created.body.id}/results`, { key: account.test })).body.data;
    const whole = (await documentedDownload(account.test, file.download_url)).bytes;

    const head = await documentedDownload(account.test, file.download_url, { range: 'bytes=0-99' });
    expect(head.status).to.equal(206);
    expect(head.headers.get('content-range')).to.equal(`bytes 0-99/${file.bytes}`);
    expect(head.headers.get('content-length')).to.equal('100');
    const rest = await documentedDownload(account.test, file.download_url, {
      range: 'bytes=100-',
      'if-range': `"${file.sha256}"`,
    });
    expect(rest.status).to.equal(206);
    expect(Buffer.concat([head.bytes, rest.bytes]).equals(whole)).to.equal(true);
    const tail = await documentedDownload(account.test, file.download_url, { range: 'bytes=-10' });
    expect(tail.bytes.equals(whole.subarray(whole.length - 10))).to.equal(true);

    const stale = await documentedDownload(account.test, file.download_url, {
      range: 'bytes=100-',
      'if-range': '"other"',
    });
    expect(stale.status).to.equal(200);
    expect(stale.bytes.length).to.equal(file.bytes);

    const beyond = await documentedDownload(account.test, file.download_url, { range: `bytes=${file.bytes}-` });
    expect(beyond.status).to.equal(416);
    expect(beyond.headers.get('content-range')).to.equal(`bytes */${file.bytes}`);
    expect(JSON.parse(beyond.bytes.toString())).to.include({ status: 416, instance: file.download_url });

    const current = await documentedDownload(account.test, file.download_url, { 'if-none-match': `"${file.sha256}"` });
    expect(current.status).to.equal(304);
    for (const tag of [`W/"${file.sha256}"`, '*', `"other", W/"${file.sha256}"`]) {
      expect(
        (await documentedDownload(account.test, file.download_url, { 'if-none-match': tag })).status,
        tag,
      ).to.equal(304);
    }

    await rm(
      app.services.jobs.resultFile({ accountId: account.accountId, mode: 'test' }, created.body.id, file.table).path,
    );
    for (const headers of [{}, { range: 'bytes=0-99' }] as Record<string, string>[]) {
      const removed = await documentedDownload(account.test, file.download_url, headers);
      expect(removed.status, 'a file removed since its job was read').to.equal(410);
      expect(JSON.parse(removed.bytes.toString())).to.include({
        type: 'https://errors.finsynth.dev/job-results-expired',
        instance: file.download_url,
      });
    }
  });

  it('cancels a queued or running job and releases its credits; cancelling a finished job is a 409', async () => {
    const fresh = await openAccount(app, { credits: 10_000 });
    const created = await request(app, 'POST', '/v1/jobs', {
      key: fresh.live,
      body: { config: cardsConfig({ transactions: 2_000_000 }, { format: 'csv' }) },
    });
    expect(created.status, created.text).to.equal(202);
    expect((await app.services.credits.balance(fresh.accountId)).credits_reserved).to.equal(4000);

    const cancelled = documented(
      'POST',
      '/v1/jobs/{id}/cancel',
      await request(app, 'POST', `/v1/jobs/${created.body.id}/cancel`, { key: fresh.live }),
    );
    expect([200, 202]).to.include(cancelled.status);
    const done = await pollJob(app, fresh.live, created.body.id, ['cancelled']);
    expect(done.body.finished_at).to.be.a('string');
    await expectEventually(async () => (await app.services.credits.balance(fresh.accountId)).credits_reserved === 0);
    expect(await app.services.credits.balance(fresh.accountId)).to.deep.equal({
      credits_available: 10_000,
      credits_reserved: 0,
    });

    const again = documented(
      'POST',
      '/v1/jobs/{id}/cancel',
      await request(app, 'POST', `/v1/jobs/${created.body.id}/cancel`, { key: fresh.live }),
    );
    expect(again.status).to.equal(409);
    expect(again.body.type).to.match(/\/job-finished$/);
    const results = await request(app, 'GET', `/v1/jobs/${created.body.id}/results`, { key: fresh.live });
    expect(results.status).to.equal(409);
  });

  it('the Free tier runs one job at a time: the second is refused with a 429 naming the limit while the first runs', async () => {
    const free = await openAccount(app, { tier: 'free', credits: 1000 });
    const first = await request(app, 'POST', '/v1/jobs', {
      key: free.live,
      body: { config: cardsConfig({ transactions: 400_000 }, { format: 'csv' }) },
    });
    expect(first.status, first.text).to.equal(202);
    const second = documented(
      'POST',
      '/v1/jobs',
      await request(app, 'POST', '/v1/jobs', {
        key: free.live,
        body: { config: cardsConfig({ merchants: 10 }, { format: 'csv' }) },
      }),
    );
    expect(second.status).to.equal(429);
    expect(second.body).to.include({ status: 429, limit: 1, active_jobs: 1, tier: 'free' });
    expect(second.body.type).to.match(/\/concurrent-job-limit$/);
    expect(second.headers.get('retry-after')).to.match(/^\d+$/);
    expect(await app.services.credits.balance(free.accountId)).to.deep.equal({
      credits_available: 200,
      credits_reserved: 800,
    });

    await request(app, 'POST', `/v1/jobs/${first.body.id}/cancel`, { key: free.live });
    await pollJob(app, free.live, first.body.id, ['cancelled']);
    const third = await request(app, 'POST', '/v1/jobs', {
      key: free.live,
      body: { config: cardsConfig({ merchants: 10 }, { format: 'csv' }) },
    });
    expect(third.status, third.text).to.equal(202);
  });

  it('refuses a job the balance does not cover with a 402 that says how many credits are needed and available', async () => {
    const poor = await openAccount(app, { credits: 5 });
    const pool = app.services.pool;
    const planned: unknown[] = [];
    const plan = pool.plan.bind(pool);
    pool.plan = (request) => (planned.push(request), plan(request));
    const refused = await request(app, 'POST', '/v1/jobs', {
      key: poor.live,
      body: { config: cardsConfig({ transactions: 10_000 }, { format: 'csv' }) },
    }).finally(() => {
      pool.plan = plan;
    });
    expect(refused.status).to.equal(402);
    expect(refused.body).to.include({
      title: 'Insufficient Credits',
      credits_required: 20,
      credits_available: 5,
      instance: '/v1/jobs',
    });
    expect(
      planned,
      'a job the account cannot pay for is refused before it is planned (planning may walk millions of parents)',
    ).to.deep.equal([]);
    expect((await request(app, 'GET', '/v1/jobs', { key: poor.live })).body.data).to.deep.equal([]);
  });

  it('takes a config as YAML too, and refuses an invalid one with a 400 that locates the problem', async () => {
    const yaml =
      'version: 1\nsector: cards\nseed: 3\ntables:\n  - name: merchants\n    rows: 50\noutput: { format: ndjson }\n';
    const created = await request(app, 'POST', '/v1/jobs', { key: account.test, body: { config_yaml: yaml } });
    expect(created.status, created.text).to.equal(202);
    expect(created.body.output).to.deep.equal({ format: 'ndjson', compression: 'none', report: true });

    const invalid = documented(
      'POST',
      '/v1/jobs',
      await request(app, 'POST', '/v1/jobs', {
        key: account.test,
        body: { config_yaml: 'version: 1\nsector: cards\ntables:\n  - name: nope\n    rows: 5\n' },
      }),
    );
    expect(invalid.status).to.equal(400);
    expect(invalid.body.errors[0]).to.include({ line: 4 });
    const unreadable = documented(
      'POST',
      '/v1/jobs',
      await request(app, 'POST', '/v1/jobs', { key: account.test, body: { config_yaml: 'version: 1\ntables: [\n' } }),
    );
    expect(unreadable.status).to.equal(400);
    expect(unreadable.body.type).to.match(/\/invalid-yaml$/);

    // The YAML file itself as the body, as `curl --data-binary @config.yaml` sends it.
    for (const type of ['application/yaml', 'text/yaml']) {
      const fromFile = documented(
        'POST',
        '/v1/jobs',
        await request(app, 'POST', '/v1/jobs', { key: account.test, body: yaml, headers: { 'content-type': type } }),
      );
      expect(fromFile.status, fromFile.text).to.equal(202);
      expect(fromFile.body.estimate).to.deep.equal(created.body.estimate);
    }
    const misplaced = await request(app, 'POST', '/v1/jobs', {
      key: account.test,
      body: 'version: 1\nsector: nowhere\ntables:\n  - name: merchants\n    rows: 5\n',
      headers: { 'content-type': 'application/yaml' },
    });
    expect(misplaced.status).to.equal(400);
    expect(misplaced.body.type).to.match(/\/unknown-sector$/);
    expect(misplaced.body.errors[0]).to.include({ pointer: '/sector', line: 2, column: 9 });
    // The body may hold more than the YAML's 1 MiB (escaped, it grows): the YAML's own limit answers, as on
    // the configs routes.
    const oversized = documented(
      'POST',
      '/v1/jobs',
      await request(app, 'POST', '/v1/jobs', {
        key: account.test,
        body: { config_yaml: `# ${'x'.repeat(1024 * 1024)}\n` },
      }),
    );
    expect(oversized.status).to.equal(413);
    expect(oversized.body.type).to.match(/\/yaml-too-large$/);
    const inline = { config: { version: 1, sector: 'cards', tables: [{ name: 'nope', rows: 5 }] } };
    const located = await request(app, 'POST', '/v1/jobs', { key: account.test, body: inline });
    expect(located.status).to.equal(400);
    expect(located.body.errors[0], "an inline config's issue, located in the JSON body").to.include({
      pointer: '/tables/0/name',
      line: 1,
      column: JSON.stringify(inline).indexOf('"nope"') + 1,
    });
    const neither = await request(app, 'POST', '/v1/jobs', { key: account.test, body: {} });
    expect(neither.status).to.equal(400);
    const unknown = await request(app, 'POST', '/v1/jobs', {
      key: account.test,
      body: { config_id: 'cfg_0000', overlays: [] },
    });
    expect(unknown.status).to.equal(404);
  });

  it('runs a saved config composed with ordered overlays', async () => {
    const saved = await request(app, 'POST', '/v1/configs', {
      key: account.test,
      body: { name: 'base', config: cardsConfig({ merchants: 40 }, { format: 'csv' }) },
    });
    expect(saved.status, saved.text).to.equal(201);
    const first = await request(app, 'POST', '/v1/overlays', {
      key: account.test,
      body: { name: 'ndjson', overlay: { output: { format: 'ndjson' } } },
    });
    const second = await request(app, 'POST', '/v1/overlays', {
      key: account.test,
      body: { name: 'gzip', overlay: { output: { compression: 'gzip' } } },
    });
    const created = await request(app, 'POST', '/v1/jobs', {
      key: account.test,
      body: { config_id: saved.body.id, overlays: [first.body.id, second.body.id] },
    });
    expect(created.status, created.text).to.equal(202);
    expect(created.body.output).to.deep.equal({ format: 'ndjson', compression: 'gzip', report: true });
    await pollJob(app, account.test, created.body.id, ['succeeded']);
    const [file] = (await request(app, 'GET', `/v1/jobs/${created.body.id}/results`, { key: account.test })).body.data;
    expect(
      countRows(gunzipSync((await download(app, account.test, file.download_url)).bytes).toString(), 'ndjson'),
    ).to.equal(40);
    const foreign = await request(app, 'POST', '/v1/jobs', { key: account.live, body: { config_id: saved.body.id } });
    expect(foreign.status).to.equal(404);
  });

  it('lists jobs newest first, by cursor, filtered by state and creation time', async () => {
    const lister = await openAccount(app, { credits: 1000 });
    const ids: string[] = [];
    for (let index = 0; index < 3; index += 1) {
      const created = await request(app, 'POST', '/v1/jobs', {
        key: lister.test,
        body: { config: cardsConfig({ merchants: 10 }, { format: 'csv' }, index) },
      });
      ids.push(created.body.id);
    }
    for (const id of ids) await pollJob(app, lister.test, id, ['succeeded']);
    const page1 = documented('GET', '/v1/jobs', await request(app, 'GET', '/v1/jobs?limit=2', { key: lister.test }));
    expect(page1.body.data.map((job: { id: string }) => job.id)).to.deep.equal([ids[2], ids[1]]);
    expect(page1.body.has_more).to.equal(true);
    const page2 = await request(app, 'GET', `/v1/jobs?limit=2&cursor=${page1.body.next_cursor}`, { key: lister.test });
    expect(page2.body).to.deep.include({ has_more: false, next_cursor: null });
    expect(page2.body.data.map((job: { id: string }) => job.id)).to.deep.equal([ids[0]]);

    expect((await request(app, 'GET', '/v1/jobs?state=succeeded', { key: lister.test })).body.data).to.have.length(3);
    expect((await request(app, 'GET', '/v1/jobs?state=running', { key: lister.test })).body.data).to.have.length(0);
    const outsideFilter = await request(
      app,
      'GET',
      `/v1/jobs?state=succeeded&limit=1&cursor=${page1.body.next_cursor}`,
      { key: lister.test },
    );
    expect(
      outsideFilter.body.data.map((job: { id: string }) => job.id),
      'a cursor holds on a list whose filter its job no longer passes',
    ).to.deep.equal([ids[0]]);
    expect(
      (await request(app, 'GET', `/v1/jobs?state=running&cursor=${page1.body.next_cursor}`, { key: lister.test })).body,
    ).to.deep.include({ data: [], has_more: false });
    const firstCreated = page2.body.data[0].created_at;
    const before = await request(app, 'GET', `/v1/jobs?created_before=${encodeURIComponent(firstCreated)}`, {
      key: lister.test,
    });
    expect(before.body.data).to.deep.equal([]);
    const after = await request(app, 'GET', `/v1/jobs?created_after=${encodeURIComponent(firstCreated)}`, {
      key: lister.test,
    });
    expect(after.body.data).to.have.length(3);
    expect((await request(app, 'GET', '/v1/jobs?state=done', { key: lister.test })).status).to.equal(400);
    expect((await request(app, 'GET', '/v1/jobs?created_after=yesterday', { key: lister.test })).status).to.equal(400);
    expect((await request(app, 'GET', '/v1/jobs?cursor=bm9wZQ', { key: lister.test })).status).to.equal(400);
  });

  it('unknown jobs are 404 problems, and so is a table a job has no result for, which lists the tables it has', async () => {
    expect(
      documented('GET', '/v1/jobs/{id}', await request(app, 'GET', '/v1/jobs/job_0123', { key: account.live })).status,
    ).to.equal(404);
    expect((await request(app, 'GET', '/v1/jobs/not-a-job', { key: account.live })).status).to.equal(400);
    const unknownJob = await documentedDownload(account.test, '/v1/jobs/job_0123/results/merchants');
    expect(unknownJob.body.type).to.match(/\/job-not-found$/);
    const created = await request(app, 'POST', '/v1/jobs', {
      key: account.test,
      body: { config: cardsConfig({ merchants: 10, cards: 20 }, { format: 'csv' }) },
    });
    await pollJob(app, account.test, created.body.id, ['succeeded']);
    const missing = await documentedDownload(account.test, `/v1/jobs/${created.body.id}/results/transactions`);
    expect(missing.status).to.equal(404);
    expect(missing.body).to.include({ type: 'https://errors.finsynth.dev/job-result-table-not-found', status: 404 });
    expect(missing.body.detail).to.match(/no result table transactions/);
    expect(missing.body.tables).to.deep.equal(['merchants', 'cards']);
  });
});

async function expectEventually(check: () => Promise<boolean>, boundMs = 10_000): Promise<void> {
  const deadline = Date.now() + boundMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('the condition never held');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
