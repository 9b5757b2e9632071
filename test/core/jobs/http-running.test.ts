import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { jobStream } from '../../../core/jobs/job.js';
import { jobDirectory } from '../../../core/jobs/result-files.js';
import { request, openAccount, startTestApp, type TestAccount, type TestApp } from '../../support/app.js';
import type { JsonBody } from '../../support/json-body.js';
import { ExchangeChecker } from './support/documented.js';
import { pollJob } from './support/http.js';

const packs = [
  fileURLToPath(new URL('../../support/packs/failing-pack/', import.meta.url)),
  fileURLToPath(new URL('./fixtures/sleepy-pack/', import.meta.url)),
];
const LEASE_MS = 15_000;

interface StreamEvent {
  type: string;
  data: Record<string, JsonBody>;
}

describe('a running job over HTTP: a generator that throws, the heartbeat, a cancel', function () {
  // Bounds, not assertions: the pool's workers start slowly on a loaded machine.
  this.timeout(120_000);
  let app: TestApp;
  let account: TestAccount;
  let checker: ExchangeChecker;

  before(async () => {
    app = await startTestApp({ config: { packs, jobLeaseMs: LEASE_MS } });
    account = await openAccount(app, { credits: 1000 });
    checker = new ExchangeChecker((await request(app, 'GET', '/v1/openapi.json')).body);
  });
  after(() => app.close());

  async function createJob(sector: string, table: string, rows: number): Promise<string> {
    const config = { version: 1, sector, seed: 1, tables: [{ name: table, rows }], output: { format: 'csv' } };
    const created = await request(app, 'POST', '/v1/jobs', { key: account.live, body: { config } });
    expect(created.status, created.text).to.equal(202);
    return created.body.id;
  }
  const events = async (jobId: string): Promise<StreamEvent[]> =>
    (await app.services.store.readStream(jobStream(jobId))) as StreamEvent[];
  const only = (stream: StreamEvent[], type: string) => {
    const matching = stream.filter((event) => event.type === type);
    expect(matching, type).to.have.length(1);
    return matching[0]!.data;
  };
  const balance = () => app.services.credits.balance(account.accountId);
  /**
   * Its credits back and its directory gone: what a failed or cancelled job's runner does after the job's
   * last event.
   */
  async function expectCleanedUp(jobId: string, credits: Awaited<ReturnType<typeof balance>>): Promise<void> {
    await eventually(
      async () => (await balance()).credits_reserved === 0 && !existsSync(jobDirectory(app.config.resultsDir, jobId)),
    );
    expect(await balance()).to.deep.equal(credits);
  }

  it('fails a job whose generator throws with job-generation-failed, naming the table and why; its credits released, no files left', async () => {
    const before = await balance();
    const id = await createJob('failing', 'entries', 2000);
    expect((await balance()).credits_reserved).to.equal(10);
    const failed = checker.check(
      'GET',
      '/v1/jobs/{id}',
      await pollJob(app, account.live, id, ['failed', 'succeeded', 'cancelled']),
    );
    expect(failed.body.state).to.equal('failed');
    expect(failed.body.failure).to.include({
      type: 'https://errors.finsynth.dev/job-generation-failed',
      title: 'Internal Server Error',
      status: 500,
      instance: `/v1/jobs/${id}`,
    });
    expect(failed.body.failure.detail)
      .to.match(/table entries/)
      .and.to.match(/the failing pack fails on every row/);
    expect(failed.body).to.include({ credits_charged: null });
    await expectCleanedUp(id, before);
    const results = checker.check(
      'GET',
      '/v1/jobs/{id}/results',
      await request(app, 'GET', `/v1/jobs/${id}/results`, { key: account.live }),
    );
    expect(results.body.type).to.match(/\/job-results-unavailable$/);
  });

  it('renews the lease with progress events at most once a second while a job runs', async () => {
    // One chunk of 8,000 rows at half a millisecond each: about 4 s of work.
    const id = await createJob('sleepy', 'slow', 8000);
    expect((await pollJob(app, account.live, id, ['succeeded', 'failed'])).body.state).to.equal('succeeded');
    const stream = await events(id);
    const started = Date.parse(only(stream, 'JobStarted').started_at);
    const finished = Date.parse(only(stream, 'JobSucceeded').finished_at);
    const beats = stream.filter((event) => event.type === 'JobProgressed').map((event) => Date.parse(event.data.at));
    expect(beats.length, 'a job that runs seconds renews its lease').to.be.at.least(2);
    const gaps = beats.map((at, index) => at - (index === 0 ? started : beats[index - 1]!));
    expect(Math.min(...gaps), `progress events ${gaps.join(', ')} ms apart`).to.be.at.least(1000);
    expect(beats.length, `${beats.length} progress events in ${finished - started} ms`).to.be.at.most(
      Math.floor((finished - started) / 1000),
    );
  });

  // Last: the hung chunks hold both of the pool's workers until their time limit (30 s), or the app closes.
  it('stops a running job within a second of its cancel, even one whose generator never returns: files removed, credits released', async () => {
    const before = await balance();
    const id = await createJob('sleepy', 'endless', 100_000);
    await pollJob(app, account.live, id, ['running']);
    // A heartbeat: the runner is at work, waiting on a chunk that never comes.
    await eventually(async () => (await events(id)).some((event) => event.type === 'JobProgressed'));
    const cancel = checker.check(
      'POST',
      '/v1/jobs/{id}/cancel',
      await request(app, 'POST', `/v1/jobs/${id}/cancel`, { key: account.live }),
    );
    // 200 once the runner confirmed, which the answer waits for a little; 202 while it has not.
    expect([200, 202]).to.include(cancel.status);
    // Bounded by the lease: a job left to run out its lease, or its hung chunk's time limit, is not cancelled in time.
    const cancelled = await pollJob(app, account.live, id, ['cancelled', 'failed', 'succeeded'], LEASE_MS);
    expect(cancelled.body.state).to.equal('cancelled');

    const stream = await events(id);
    const stopping =
      Date.parse(only(stream, 'JobCancelled').cancelled_at) -
      Date.parse(only(stream, 'JobCancelRequested').requested_at);
    // The second, with a margin for a loaded machine: the runner reads the job's stream every 200 ms.
    expect(stopping, 'ms from the cancel to the runner confirming it stopped').to.be.below(2000);
    expect(only(stream, 'JobStarted').attempt).to.equal(1);
    await expectCleanedUp(id, before);
    // Stopped, not just marked: no heartbeat comes after the cancel.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect((await events(id)).map((event) => event.type).at(-1)).to.equal('JobCancelled');
  });
});

async function eventually(check: () => Promise<boolean>, boundMs = 10_000): Promise<void> {
  const deadline = Date.now() + boundMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('the condition never held');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
