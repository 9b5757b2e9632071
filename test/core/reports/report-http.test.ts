import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { openAccount, request, startTestApp, type TestAccount, type TestApp } from '../../support/app.js';
import { pollJob } from '../jobs/support/http.js';
import type { DatasetReport } from '../../../core/reports/report.js';

describe('GET /v1/jobs/{id}/report: the conformance report of a job, over HTTP', function () {
  this.timeout(120_000);
  let app: TestApp;
  let account: TestAccount;
  let jobId: string;

  before(async () => {
    app = await startTestApp();
    account = await openAccount(app);
    const config = {
      version: 1,
      sector: 'cards',
      seed: 11,
      tables: [
        {
          name: 'transactions',
          rows: 20_000,
          columns: { entry_mode: { weights: { chip: 6, contactless: 3, online: 1 } } },
        },
      ],
      output: { format: 'csv', report: true },
    };
    const created = await request(app, 'POST', '/v1/jobs', { key: account.live, body: { config } });
    expect(created.status, created.text).to.equal(202);
    jobId = created.body.id as string;
    const done = await pollJob(app, account.live, jobId, ['succeeded', 'failed']);
    expect(done.body.state, done.text).to.equal('succeeded');
  });
  after(() => app?.close());

  it('makes a report by default, and none for a job whose config turns it off (output.report false)', async () => {
    const tables = [{ name: 'merchants', rows: 50 }];
    const byDefault = await request(app, 'POST', '/v1/jobs', {
      key: account.live,
      body: { config: { version: 1, sector: 'cards', seed: 11, tables } },
    });
    expect(byDefault.body.output).to.deep.equal({ format: 'ndjson', compression: 'none', report: true });
    await pollJob(app, account.live, byDefault.body.id, ['succeeded', 'failed']);
    const made = await request(app, 'GET', `/v1/jobs/${byDefault.body.id}/report`, { key: account.live });
    expect(made.status, made.text).to.equal(200);

    const config = { version: 1, sector: 'cards', seed: 11, tables, output: { report: false } };
    const created = await request(app, 'POST', '/v1/jobs', { key: account.live, body: { config } });
    expect(created.body.output).to.deep.equal({ format: 'ndjson', compression: 'none' });
    const done = await pollJob(app, account.live, created.body.id, ['succeeded', 'failed']);
    expect(done.body.state, done.text).to.equal('succeeded');
    expect(done.body.report).to.equal(null);
    const answer = await request(app, 'GET', `/v1/jobs/${created.body.id}/report`, { key: account.live });
    expect(answer.status).to.equal(404);
    expect(answer.body.type).to.match(/\/job-report-not-found$/);
    const succeeded = (await app.services.store.readStream(`job-${created.body.id}`)).find(
      (event) => event.type === 'JobSucceeded',
    );
    expect(succeeded?.data).to.not.have.property('report');
  });

  it("answers the report as JSON, its SHA-256 the one recorded in the job's success event", async () => {
    const answer = await request(app, 'GET', `/v1/jobs/${jobId}/report`, { key: account.live });
    expect(answer.status, answer.text).to.equal(200);
    expect(answer.headers.get('content-type')).to.match(/^application\/json/);
    const report = answer.body as unknown as DatasetReport;
    expect(report.object).to.equal('report');
    expect(report.tables.map((table) => table.name)).to.have.members([
      'transactions',
      'cards',
      'merchants',
      'cardholders',
    ]);
    const transactions = report.tables.find((table) => table.name === 'transactions')!;
    expect(transactions.rows).to.equal(20_000);
    expect(transactions.findings).to.deep.equal([]);
    expect(transactions.score).to.equal(100);
    // The weights the config set, each value's share against its weight, within its tolerance.
    const channel = transactions.targets.filter((target) => target.column === 'entry_mode');
    expect(channel.map((target) => target.target)).to.have.members([
      'weights.chip',
      'weights.contactless',
      'weights.online',
    ]);
    expect(channel.every((target) => target.pass)).to.equal(true);
    expect(channel.find((target) => target.target === 'weights.chip')!.configured).to.equal(0.6);

    const events = await app.services.store.readStream(`job-${jobId}`);
    const succeeded = events.find((event) => event.type === 'JobSucceeded')!.data as {
      report: { file: string; bytes: number; sha256: string };
    };
    const hash = createHash('sha256').update(Buffer.from(answer.text)).digest('hex');
    expect(succeeded.report).to.deep.equal({
      file: '_report.json',
      bytes: Buffer.byteLength(answer.text),
      sha256: hash,
    });
    expect(answer.headers.get('etag')).to.equal(`"${hash}"`);
    // The job itself names it, so that a client can check what it downloads without the store's events.
    const job = await request(app, 'GET', `/v1/jobs/${jobId}`, { key: account.live });
    expect(job.body.report).to.deep.equal({
      bytes: Buffer.byteLength(answer.text),
      sha256: hash,
      url: `/v1/jobs/${jobId}/report`,
    });
    const again = await request(app, 'GET', `/v1/jobs/${jobId}/report`, {
      key: account.live,
      headers: { 'if-none-match': `"${hash}"` },
    });
    expect(again.status).to.equal(304);
  });

  it('answers Accept: text/html with a self-contained page under a policy that loads nothing', async () => {
    const page = await request(app, 'GET', `/v1/jobs/${jobId}/report`, {
      key: account.live,
      headers: { accept: 'text/html' },
    });
    expect(page.status).to.equal(200);
    expect(page.headers.get('content-type')).to.equal('text/html; charset=utf-8');
    const policy = page.headers.get('content-security-policy')!;
    expect(policy).to.match(/^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/=]+'/);
    expect(policy).not.to.include('script-src');
    expect(page.text).to.include('<svg');
    expect(page.text).not.to.match(/<script|\bsrc=|\bhref=/);
    const style = /<style>([\s\S]*?)<\/style>/.exec(page.text)![1];
    expect(policy).to.include(`'sha256-${createHash('sha256').update(style).digest('base64')}'`);
    // The page's own strong ETag, not the JSON's: a cache holding one representation never answers for the other.
    const pageTag = `"${createHash('sha256').update(page.text).digest('hex')}"`;
    expect(page.headers.get('etag')).to.equal(pageTag);
    const json = await request(app, 'GET', `/v1/jobs/${jobId}/report`, { key: account.live });
    expect(json.headers.get('etag')).not.to.equal(pageTag);
    const conditional = (accept: string, tag: string) =>
      request(app, 'GET', `/v1/jobs/${jobId}/report`, {
        key: account.live,
        headers: { accept, 'if-none-match': tag },
      });
    expect((await conditional('text/html', json.headers.get('etag')!)).status).to.equal(200);
    expect((await conditional('text/html', pageTag)).status).to.equal(304);
    expect((await conditional('application/json', pageTag)).status).to.equal(200);
  });

  it('is a problem before success, for another mode, and for what the page cannot be', async () => {
    const other = await request(app, 'GET', `/v1/jobs/${jobId}/report`, { key: account.test });
    expect(other.status).to.equal(404);
    expect(other.headers.get('content-type')).to.equal('application/problem+json');
    const refused = await request(app, 'GET', `/v1/jobs/${jobId}/report`, {
      key: account.live,
      headers: { accept: 'image/png' },
    });
    expect(refused.status).to.equal(406);
  });
});
