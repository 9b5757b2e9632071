import { expect } from 'chai';
import { Finsynth, RateLimitError, ServerError, type FetchLike } from '../../../clients/typescript/src/index.js';
import { openAccount, startTestApp, type TestApp } from '../../support/app.js';
import { recordingFetch, type Attempt } from './support/recording-fetch.js';

/** Calls sent at once by one free-tier account (5 requests per second): more than its bucket holds. */
const BURST = 15;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** A config small enough to run in a moment, with a test key. */
const TINY_CONFIG = { version: 1, sector: 'cards', seed: 3, tables: [{ name: 'cards', rows: 10 }] };

/** The attempts of each call of a burst, told apart by the X-Call header the test sends. */
function byCall(attempts: Attempt[]): Attempt[][] {
  const calls = new Map<string, Attempt[]>();
  for (const attempt of attempts) {
    const call = attempt.headers.get('x-call') ?? '';
    calls.set(call, [...(calls.get(call) ?? []), attempt]);
  }
  return [...calls.values()];
}

describe('@finsynth/client: retries and idempotency keys', function () {
  this.timeout(60_000);
  let app: TestApp;

  before(async () => {
    app = await startTestApp();
  });
  after(() => app?.close());

  it('retries a 429 no sooner than its Retry-After, until the call succeeds', async () => {
    const account = await openAccount(app, { tier: 'free' });
    const recorder = recordingFetch();
    const finsynth = new Finsynth({ apiKey: account.test, baseUrl: app.url, fetch: recorder.fetch, maxRetries: 6 });
    const calls = Array.from({ length: BURST }, (_, call) =>
      finsynth.catalog.types({ headers: { 'X-Call': String(call) } }),
    );
    const answers = await Promise.all(calls);
    expect(answers.every((types) => Array.isArray(types.data))).to.equal(true);

    const refused = recorder.attempts.filter((attempt) => attempt.status === 429);
    expect(refused.length, 'the burst met the rate limit').to.be.greaterThan(0);
    for (const attempts of byCall(recorder.attempts)) {
      expect(attempts.at(-1)!.status).to.equal(200);
      for (let index = 1; index < attempts.length; index++) {
        const [before, retry] = [attempts[index - 1]!, attempts[index]!];
        expect(before.status).to.equal(429);
        const retryAfter = Number(before.answerHeaders!.get('retry-after'));
        expect(retryAfter).to.be.at.least(1);
        // A lower bound that the client's own wait guarantees, not a speed. The slack covers timers, which
        // count from the event loop's time of the turn they were set in; the backoff alone would be 250-500 ms.
        expect(retry.sentAt - before.answeredAt).to.be.at.least(retryAfter * 1000 - 100);
      }
    }
  });

  it('throws the 429 as RateLimitError, with Retry-After, when maxRetries is 0', async () => {
    const account = await openAccount(app, { tier: 'free' });
    const recorder = recordingFetch();
    const finsynth = new Finsynth({ apiKey: account.test, baseUrl: app.url, fetch: recorder.fetch, maxRetries: 0 });
    const outcomes = await Promise.allSettled(Array.from({ length: BURST }, () => finsynth.catalog.types()));
    const rejected = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason] : []));
    expect(rejected.length).to.be.greaterThan(0);
    for (const error of rejected) {
      expect(error).to.be.instanceOf(RateLimitError).and.include({ status: 429, slug: 'rate-limited' });
      expect((error as RateLimitError).retryAfter).to.be.at.least(1);
    }
    expect(recorder.attempts).to.have.length(BURST);
  });

  it('sends a UUID Idempotency-Key with a POST, the same on its retry: the service does the work once', async () => {
    const account = await openAccount(app);
    // The first attempt reaches the service, which creates the job; its answer is then lost on the way back.
    let lost = 0;
    const losing: FetchLike = async (request) => {
      const response = await fetch(request);
      if (request.method === 'POST' && lost++ === 0) {
        await response.body?.cancel();
        throw new TypeError('fetch failed: the connection was reset');
      }
      return response;
    };
    const recorder = recordingFetch(losing);
    const finsynth = new Finsynth({ apiKey: account.test, baseUrl: app.url, fetch: recorder.fetch });
    const job = await finsynth.jobs.create({ config: TINY_CONFIG });

    const posts = recorder.attempts.filter((attempt) => attempt.method === 'POST');
    expect(posts).to.have.length(2);
    const [first, retry] = posts.map((attempt) => attempt.headers.get('idempotency-key'));
    expect(first).to.match(UUID);
    expect(retry).to.equal(first);
    expect(posts[1]!.answerHeaders!.get('idempotent-replayed')).to.equal('true');
    const jobs = await finsynth.jobs.list().toArray();
    expect(jobs.map((each) => each.id)).to.deep.equal([job.id]);
  });

  it('retries a 503 with the same key, and a caller may give the key', async () => {
    const account = await openAccount(app);
    let unavailable = 0;
    // A gateway in front of the service answers the first attempt 503, as during a restart.
    const flaky: FetchLike = async (request) =>
      unavailable++ === 0
        ? new Response('{}', { status: 503, headers: { 'Retry-After': '1', 'Content-Type': 'application/json' } })
        : fetch(request);
    const recorder = recordingFetch(flaky);
    const finsynth = new Finsynth({ apiKey: account.test, baseUrl: app.url, fetch: recorder.fetch });
    const saved = await finsynth.configs.create(
      { name: 'once', config: TINY_CONFIG },
      { idempotencyKey: 'save-once-2026-11-26' },
    );
    expect(recorder.attempts.map((attempt) => attempt.status)).to.deep.equal([503, 201]);
    expect(recorder.attempts.map((attempt) => attempt.headers.get('idempotency-key'))).to.deep.equal([
      'save-once-2026-11-26',
      'save-once-2026-11-26',
    ]);
    expect((await finsynth.configs.list().toArray()).map((config) => config.id)).to.deep.equal([saved.id]);
  });

  it('throws at once an answer whose Retry-After asks for more than a minute', async () => {
    const account = await openAccount(app);
    const unavailable: FetchLike = async () =>
      new Response('{}', { status: 503, headers: { 'Retry-After': '120', 'Content-Type': 'application/json' } });
    const recorder = recordingFetch(unavailable);
    const finsynth = new Finsynth({ apiKey: account.test, baseUrl: app.url, fetch: recorder.fetch, maxRetries: 5 });
    const error = await finsynth.catalog.types().catch((thrown: unknown) => thrown);
    expect(error).to.be.instanceOf(ServerError).and.include({ status: 503, type: 'about:blank' });
    expect(recorder.attempts).to.have.length(1);
  });

  it('sends no Idempotency-Key with a GET or a DELETE, and a distinct one with each POST', async () => {
    const account = await openAccount(app);
    const recorder = recordingFetch();
    const finsynth = new Finsynth({ apiKey: account.test, baseUrl: app.url, fetch: recorder.fetch });
    const saved = await finsynth.configs.create({ name: 'a', config: TINY_CONFIG });
    await finsynth.configs.create({ name: 'b', config: TINY_CONFIG });
    await finsynth.configs.retrieve(saved.id);
    await finsynth.configs.delete(saved.id);
    const keys = recorder.attempts.map((attempt) => [attempt.method, attempt.headers.get('idempotency-key')]);
    expect(keys.map(([method]) => method)).to.deep.equal(['POST', 'POST', 'GET', 'DELETE']);
    expect(keys[0]![1]).to.match(UUID);
    expect(keys[1]![1]).to.match(UUID).and.not.equal(keys[0]![1]);
    expect(keys.slice(2).map(([, key]) => key)).to.deep.equal([null, null]);
  });
});
