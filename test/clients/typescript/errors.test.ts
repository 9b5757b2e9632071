import { expect } from 'chai';
import {
  AuthenticationError,
  Finsynth,
  FinsynthConnectionError,
  FinsynthError,
  InsufficientCreditsError,
  InvalidRequestError,
  NotFoundError,
  PermissionError,
} from '../../../clients/typescript/src/index.js';
import { freePort } from '../../support/ports.js';
import { openAccount, startTestApp, type TestAccount, type TestApp } from '../../support/app.js';
import { recordingFetch } from './support/recording-fetch.js';

/** The error a call rejects with; fails the test when it resolves. */
async function rejectionOf(call: Promise<unknown>): Promise<unknown> {
  try {
    await call;
  } catch (error) {
    return error;
  }
  throw new Error('the call succeeded');
}

describe('@finsynth/client: quick generation and the errors problems are thrown as', function () {
  this.timeout(60_000);
  let app: TestApp;
  let account: TestAccount;

  before(async () => {
    app = await startTestApp();
    account = await openAccount(app);
  });
  after(() => app?.close());

  it('generates rows in the same exchange, as JSON or as CSV text', async () => {
    const finsynth = new Finsynth({ apiKey: account.test, baseUrl: app.url });
    const body = { sector: 'cards', tables: [{ name: 'cards', rows: 20 }], seed: 7 };
    const generated = await finsynth.generate.quick(body);
    expect(generated).to.include({ sector: 'cards', seed: 7, rows: 20, mode: 'test', credits_charged: 0 });
    expect(generated.tables.cards).to.have.length(20);
    const csv = await finsynth.generate.quick(body, { format: 'csv' });
    expect(csv.trimEnd().split('\r\n')).to.have.length(21);
    // The CSV's header names the columns of the JSON rows.
    expect(csv.split('\r\n')[0]!.split(',')).to.deep.equal(Object.keys(generated.tables.cards![0]!));
  });

  it('throws a 402 as InsufficientCreditsError carrying credits_required and credits_available', async () => {
    const poor = await openAccount(app, { credits: 0 });
    const finsynth = new Finsynth({ apiKey: poor.live, baseUrl: app.url });
    const error = await rejectionOf(
      finsynth.generate.quick({ sector: 'cards', tables: [{ name: 'transactions', rows: 5_000 }] }),
    );
    expect(error).to.be.instanceOf(InsufficientCreditsError).and.instanceOf(FinsynthError);
    const problem = error as InsufficientCreditsError;
    expect(problem).to.include({ status: 402, title: 'Insufficient Credits', slug: 'insufficient-credits' });
    expect(problem.type).to.equal('https://errors.finsynth.dev/insufficient-credits');
    expect(problem.problem.credits_required).to.be.a('number').greaterThan(0);
    expect(problem.creditsRequired).to.equal(problem.problem.credits_required);
    expect(problem.creditsAvailable).to.equal(0);
    expect(problem.requestId).to.be.a('string').and.not.equal('');
    expect(problem.requestId).to.equal(problem.headers.get('request-id'));
  });

  it('throws a 400 as InvalidRequestError with its failing fields, sent once: never retried', async () => {
    const recorder = recordingFetch();
    const finsynth = new Finsynth({ apiKey: account.test, baseUrl: app.url, fetch: recorder.fetch, maxRetries: 2 });
    const error = await rejectionOf(finsynth.generate.quick({ sector: 'cards', tables: [{ name: 'cards', rows: 0 }] }));
    expect(error).to.be.instanceOf(InvalidRequestError);
    const problem = error as InvalidRequestError;
    expect(problem.status).to.equal(400);
    expect(problem.errors.map((field) => field.pointer)).to.include('/tables/0/rows');
    expect(recorder.attempts.map((attempt) => attempt.status)).to.deep.equal([400]);
  });

  it('throws 401, 403 and 404 as AuthenticationError, PermissionError and NotFoundError', async () => {
    const unknownKey = new Finsynth({ apiKey: `svc_test_${'0'.repeat(32)}`, baseUrl: app.url });
    expect(await rejectionOf(unknownKey.catalog.types()))
      .to.be.instanceOf(AuthenticationError)
      .and.include({
        status: 401,
      });
    const test = new Finsynth({ apiKey: account.test, baseUrl: app.url });
    const forbidden = await rejectionOf(test.billing.credits());
    expect(forbidden).to.be.instanceOf(PermissionError).and.include({ status: 403, slug: 'live-key-required' });
    const missing = await rejectionOf(test.jobs.retrieve('job_0123456789abcdef'));
    expect(missing).to.be.instanceOf(NotFoundError).and.include({ status: 404, slug: 'job-not-found' });
    expect((missing as NotFoundError).problem.instance).to.equal('/v1/jobs/job_0123456789abcdef');
  });

  it('throws FinsynthConnectionError when nothing answers, after retrying a request safe to repeat', async () => {
    const recorder = recordingFetch();
    const port = await freePort();
    const finsynth = new Finsynth({
      apiKey: account.test,
      baseUrl: `http://127.0.0.1:${port}`,
      fetch: recorder.fetch,
      maxRetries: 1,
    });
    const error = await rejectionOf(finsynth.catalog.types());
    expect(error).to.be.instanceOf(FinsynthConnectionError);
    expect(recorder.attempts).to.have.length(2);
  });

  it('reads the key and the address from FINSYNTH_KEY and FINSYNTH_URL, and tells test keys from live ones', async () => {
    const saved = { key: process.env.FINSYNTH_KEY, url: process.env.FINSYNTH_URL };
    try {
      process.env.FINSYNTH_KEY = account.live;
      process.env.FINSYNTH_URL = `${app.url}/v1/`;
      const finsynth = new Finsynth();
      expect(finsynth.mode).to.equal('live');
      expect(finsynth.baseUrl).to.equal(app.url);
      expect((await finsynth.billing.credits()).credits_available).to.be.a('number');
      expect(new Finsynth({ apiKey: account.test }).mode).to.equal('test');
      delete process.env.FINSYNTH_KEY;
      expect(() => new Finsynth()).to.throw(/FINSYNTH_KEY/);
    } finally {
      for (const [name, value] of [
        ['FINSYNTH_KEY', saved.key],
        ['FINSYNTH_URL', saved.url],
      ] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });
});
