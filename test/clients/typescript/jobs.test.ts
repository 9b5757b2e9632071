import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { ConflictError, Finsynth, FinsynthError, type Job } from '../../../clients/typescript/src/index.js';
import { openAccount, startTestApp, type TestAccount, type TestApp } from '../../support/app.js';
import { startCuttingProxy, type CuttingProxy } from './support/cutting-proxy.js';
import { recordingFetch } from './support/recording-fetch.js';

const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

/** 20,000 card transactions as uncompressed CSV: a file of megabytes, so that a cut lands mid-body. */
const TRANSACTIONS_YAML = [
  'version: 1',
  'sector: cards',
  'seed: 42',
  'tables:',
  '  - name: transactions',
  '    rows: 20000',
  'output: { format: csv, compression: none, referenced_tables: omit }',
  '',
].join('\n');

/** Where the proxy ends the first connection: past the headers, far before the end of the file. */
const CUT_AFTER_BYTES = 64 * 1024;

describe('@finsynth/client: a job end to end', function () {
  // A bound, not an assertion: the generation pool starts slowly on a loaded machine.
  this.timeout(120_000);
  let app: TestApp;
  let account: TestAccount;
  let finsynth: Finsynth;
  let folder: string;
  let job: Job;
  let progress: Job[];
  /** The file as a plain fetch gets it, in one piece. */
  let whole: Buffer;

  before(async () => {
    app = await startTestApp();
    account = await openAccount(app);
    folder = await mkdtemp(join(tmpdir(), 'finsynth-client-'));
    finsynth = new Finsynth({ apiKey: account.test, baseUrl: app.url });
    const created = await finsynth.jobs.create(TRANSACTIONS_YAML);
    progress = [];
    job = await finsynth.jobs.wait(created.id, { intervalMs: 100, onProgress: (seen) => progress.push(seen) });
    const response = await fetch(`${app.url}/v1/jobs/${job.id}/results/transactions`, {
      headers: { authorization: `Bearer ${account.test}` },
    });
    whole = Buffer.from(await response.arrayBuffer());
  });
  after(async () => {
    await app?.close();
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  it('creates a job from YAML text and waits until it succeeds, telling each poll to onProgress', async () => {
    expect(job.state, JSON.stringify(job.failure)).to.equal('succeeded');
    expect(job).to.include({ object: 'job', mode: 'test', sector: 'cards' });
    expect(job.progress).to.include({ rows_done: 20_000, rows_total: 20_000 });
    expect(progress.length).to.be.greaterThan(0);
    expect(progress.at(-1)).to.deep.equal(job);
    expect((await finsynth.jobs.retrieve(job.id)).state).to.equal('succeeded');
    const results = await finsynth.jobs.results(job.id);
    expect(results.data.map((file) => file.table)).to.deep.equal(['transactions']);
    expect(results.data[0]).to.include({ format: 'csv', compression: 'none', rows: 20_000 });
  });

  it("reads a job's conformance report as JSON and as its HTML page, and a job without one as a problem", async () => {
    // An account of its own, so that the other tests see only the one job of theirs.
    const other = new Finsynth({ apiKey: (await openAccount(app)).test, baseUrl: app.url });
    const reported = await other.jobs.create(TRANSACTIONS_YAML.replace('rows: 20000', 'rows: 500'));
    await other.jobs.wait(reported.id, { intervalMs: 100 });
    const report = await other.jobs.report(reported.id);
    expect(report).to.include({ object: 'report', sector: 'cards', seed: 42 });
    expect(report.tables.map((table) => [table.name, table.rows])).to.deep.equal([['transactions', 500]]);
    const page = await other.jobs.reportPage(reported.id);
    expect(page).to.match(/^<!doctype html>/i);
    expect(page).to.contain('transactions');
    const turnedOff = await other.jobs.create(TRANSACTIONS_YAML.replace(' }', ', report: false }'));
    await other.jobs.wait(turnedOff.id, { intervalMs: 100 });
    const missing = await other.jobs.report(turnedOff.id).catch((error: unknown) => error);
    expect(missing).to.be.instanceOf(FinsynthError);
    expect(missing).to.include({ status: 404, type: 'https://errors.finsynth.dev/job-report-not-found' });
  });

  it('downloads a result to a path: the bytes the service listed, renamed into place, no temporary file left', async () => {
    const [file] = (await finsynth.jobs.results(job.id)).data;
    const path = join(folder, 'transactions.csv');
    const downloaded = await finsynth.jobs.download(job.id, 'transactions', { to: path });
    const bytes = await readFile(path);
    expect(bytes.length).to.equal(file!.bytes);
    expect(sha256(bytes)).to.equal(file!.sha256);
    expect(bytes.equals(whole)).to.equal(true);
    expect(downloaded).to.deep.equal({ bytes: file!.bytes, sha256: file!.sha256, etag: `"${file!.sha256}"`, path });
    expect(await readdir(folder)).to.deep.equal(['transactions.csv']);
    await rm(path);
  });

  it('resumes a download whose connection broke mid-file with Range and If-Range, to the same bytes', async () => {
    let proxy: CuttingProxy | undefined;
    try {
      proxy = await startCuttingProxy(app.server.port, CUT_AFTER_BYTES);
      const recorder = recordingFetch();
      const throughProxy = new Finsynth({ apiKey: account.test, baseUrl: proxy.url, fetch: recorder.fetch });
      const path = join(folder, 'resumed.csv');
      const downloaded = await throughProxy.jobs.download(job.id, 'transactions', { to: path });
      const bytes = await readFile(path);
      expect(bytes.equals(whole)).to.equal(true);
      expect(downloaded).to.include({ bytes: whole.length, sha256: sha256(whole) });

      const [first, resumed, ...more] = recorder.attempts;
      expect(more).to.have.length(0);
      expect(first!.status).to.equal(200);
      expect(first!.headers.has('range')).to.equal(false);
      const from = Number(/^bytes=(\d+)-$/.exec(resumed!.headers.get('range') ?? '')?.[1]);
      // The first connection carried the headers and part of the body: the rest was asked for, not all of it.
      expect(from).to.be.greaterThan(0).and.lessThan(CUT_AFTER_BYTES);
      expect(resumed!.headers.get('if-range')).to.equal(`"${sha256(whole)}"`);
      expect(resumed!.status).to.equal(206);
      expect(resumed!.answerHeaders!.get('content-range')).to.equal(
        `bytes ${from}-${whole.length - 1}/${whole.length}`,
      );
      expect(proxy.connections).to.equal(2);
      expect(await readdir(folder)).to.deep.equal(['resumed.csv']);
      await rm(path);
    } finally {
      await proxy?.close();
    }
  });

  it('starts again from the first byte when the file is no longer the one begun (If-Range does not match)', async () => {
    let proxy: CuttingProxy | undefined;
    try {
      proxy = await startCuttingProxy(app.server.port, CUT_AFTER_BYTES);
      // The resumed request names another ETag, as when the file was replaced since the first answer.
      const recorder = recordingFetch((request) => {
        if (!request.headers.has('if-range')) return fetch(request);
        const headers = new Headers(request.headers);
        headers.set('If-Range', `"${'0'.repeat(64)}"`);
        return fetch(new Request(request, { headers }));
      });
      const throughProxy = new Finsynth({ apiKey: account.test, baseUrl: proxy.url, fetch: recorder.fetch });
      const path = join(folder, 'restarted.csv');
      await throughProxy.jobs.download(job.id, 'transactions', { to: path });
      expect((await readFile(path)).equals(whole)).to.equal(true);
      expect(recorder.attempts.map((attempt) => attempt.status)).to.deep.equal([200, 200]);
      await rm(path);
    } finally {
      await proxy?.close();
    }
  });

  it('fails a download into a Writable, which cannot start again, when the file is no longer the one begun', async () => {
    let proxy: CuttingProxy | undefined;
    try {
      proxy = await startCuttingProxy(app.server.port, CUT_AFTER_BYTES);
      const recorder = recordingFetch((request) => {
        if (!request.headers.has('if-range')) return fetch(request);
        const headers = new Headers(request.headers);
        headers.set('If-Range', `"${'0'.repeat(64)}"`);
        return fetch(new Request(request, { headers }));
      });
      const throughProxy = new Finsynth({ apiKey: account.test, baseUrl: proxy.url, fetch: recorder.fetch });
      const sink = new PassThrough();
      sink.resume();
      const failure = await throughProxy.jobs
        .download(job.id, 'transactions', { to: sink })
        .catch((error: unknown) => error);
      expect(failure)
        .to.be.instanceOf(Error)
        .with.property('message')
        .that.matches(/changed during the download/);
      expect(sink.writableEnded).to.equal(false);
    } finally {
      await proxy?.close();
    }
  });

  it('streams a result into a Writable, and ends it', async () => {
    const sink = new PassThrough();
    const chunks: Buffer[] = [];
    sink.on('data', (chunk: Buffer) => chunks.push(chunk));
    const ended = new Promise((resolve) => sink.on('end', resolve));
    const downloaded = await finsynth.jobs.download(job.id, 'transactions', { to: sink });
    await ended;
    expect(Buffer.concat(chunks).equals(whole)).to.equal(true);
    expect(downloaded).to.deep.equal({ bytes: whole.length, sha256: sha256(whole), etag: `"${sha256(whole)}"` });
  });

  it('lists the jobs of the key mode only; cancelling a finished job is a ConflictError', async () => {
    const listed = await finsynth.jobs.list({ limit: 10 }).toArray();
    expect(listed.map((each) => each.id)).to.deep.equal([job.id]);
    const live = new Finsynth({ apiKey: account.live, baseUrl: app.url });
    expect(await live.jobs.list().toArray()).to.deep.equal([]);
    const refused = await finsynth.jobs.cancel(job.id).catch((error: unknown) => error);
    expect(refused).to.be.instanceOf(ConflictError);
    expect(refused).to.include({ status: 409 });
    expect((await finsynth.jobs.retrieve(job.id)).state).to.equal('succeeded');
  });

  it('stops waiting when asked, and cancels a queued or running job', async () => {
    const created = await finsynth.jobs.create({
      config: { version: 1, sector: 'cards', seed: 1, tables: [{ name: 'transactions', rows: 5_000_000 }] },
    });
    // Waiting stops when its signal is aborted, with the signal's reason; the job goes on.
    const stop = new AbortController();
    const reason = new Error('no longer waiting');
    const onProgress = () => stop.abort(reason);
    const waiting = finsynth.jobs.wait(created.id, { intervalMs: 50, signal: stop.signal, onProgress });
    expect(await waiting.catch((error: unknown) => error)).to.equal(reason);
    const cancelled = await finsynth.jobs.cancel(created.id);
    expect(cancelled.id).to.equal(created.id);
    expect(cancelled.cancel_requested || cancelled.state === 'cancelled').to.equal(true);
    const ended = await finsynth.jobs.wait(created.id, { intervalMs: 100 });
    expect(ended.state).to.equal('cancelled');
  });
});
