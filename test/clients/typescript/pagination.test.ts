import { expect } from 'chai';
import { Finsynth } from '../../../clients/typescript/src/index.js';
import { openAccount, startTestApp, type TestAccount, type TestApp } from '../../support/app.js';
import { recordingFetch } from './support/recording-fetch.js';

describe('@finsynth/client: lists', function () {
  this.timeout(60_000);
  let app: TestApp;
  let account: TestAccount;
  /** Every test key of the account, newest first, as one page of the service lists them. */
  let all: string[];

  before(async () => {
    app = await startTestApp();
    account = await openAccount(app);
    const finsynth = new Finsynth({ apiKey: account.test, baseUrl: app.url });
    for (const name of ['one', 'two', 'three', 'four']) await finsynth.keys.create({ name, scopes: ['catalog:read'] });
    all = (await finsynth.keys.list({ limit: 100 })).data.map((key) => key.id);
  });
  after(() => app?.close());

  it('awaited, give their first page', async () => {
    const finsynth = new Finsynth({ apiKey: account.test, baseUrl: app.url });
    const page = await finsynth.keys.list({ limit: 2 });
    expect(page.data.map((key) => key.id)).to.deep.equal(all.slice(0, 2));
    expect(page.has_more).to.equal(true);
    expect(page.next_cursor).to.be.a('string');
  });

  it('iterated, give every item of every page, following next_cursor page after page', async () => {
    expect(all).to.have.length(5);
    const recorder = recordingFetch();
    const finsynth = new Finsynth({ apiKey: account.test, baseUrl: app.url, fetch: recorder.fetch });
    const seen: string[] = [];
    for await (const key of finsynth.keys.list({ limit: 2 })) seen.push(key.id);
    expect(seen).to.deep.equal(all);

    const queries = recorder.attempts.map((attempt) => Object.fromEntries(attempt.url.searchParams));
    expect(queries).to.have.length(3);
    expect(queries[0]).to.deep.equal({ limit: '2' });
    const pages = await finsynth.keys.list({ limit: 2 }).pages().next();
    expect(queries[1]).to.deep.equal({ limit: '2', cursor: pages.value!.next_cursor });
    expect(queries[2]!.cursor).to.be.a('string').and.not.equal(queries[1]!.cursor);
  });

  it('give their pages, and stop asking once enough items are taken', async () => {
    const recorder = recordingFetch();
    const finsynth = new Finsynth({ apiKey: account.test, baseUrl: app.url, fetch: recorder.fetch });
    const sizes: number[] = [];
    for await (const page of finsynth.keys.list({ limit: 2 }).pages()) sizes.push(page.data.length);
    expect(sizes).to.deep.equal([2, 2, 1]);

    recorder.attempts.length = 0;
    const first3 = await finsynth.keys.list({ limit: 2 }).toArray({ max: 3 });
    expect(first3.map((key) => key.id)).to.deep.equal(all.slice(0, 3));
    expect(recorder.attempts).to.have.length(2);
  });

  it('ask for their first page once, however they are used', async () => {
    const recorder = recordingFetch();
    const finsynth = new Finsynth({ apiKey: account.test, baseUrl: app.url, fetch: recorder.fetch });
    const list = finsynth.keys.list({ limit: 5 });
    const page = await list;
    const items = await list.toArray();
    expect(items.map((key) => key.id)).to.deep.equal(page.data.map((key) => key.id));
    expect(recorder.attempts).to.have.length(1);
  });
});
