import { expect } from 'chai';
import { request, openAccount, startTestApp, type TestAccount, type TestApp } from '../../support/app.js';

/** Polls until `check` holds; bounded generously: this proves propagation, not its speed. */
async function eventually(check: () => Promise<boolean>, boundMs = 5000): Promise<void> {
  const deadline = Date.now() + boundMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('the condition never held');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('keys: issue, list, revoke', () => {
  let app: TestApp;
  let account: TestAccount;

  before(async () => {
    app = await startTestApp();
    account = await openAccount(app);
  });
  after(() => app.close());

  it('issues a key usable at once, whose secret is shown once and stored only as a hash', async () => {
    const issued = await request(app, 'POST', '/v1/keys', {
      key: account.live,
      body: { name: 'ci', scopes: ['catalog:read', 'keys:read'] },
    });
    expect(issued.status).to.equal(201);
    expect(issued.body).to.include({ name: 'ci', mode: 'live', revoked_at: null });
    expect(issued.body.scopes).to.deep.equal(['catalog:read', 'keys:read']);
    expect(issued.body.secret).to.match(/^svc_live_[0-9A-Za-z]{32}$/);
    expect(issued.body.secret.startsWith(issued.body.prefix)).to.equal(true);
    expect((await request(app, 'GET', '/v1/keys', { key: issued.body.secret })).status).to.equal(200);

    const events = await app.services.store.readAll();
    const stored = JSON.stringify(events);
    expect(stored).not.to.contain(issued.body.secret);
    expect(stored).not.to.contain(account.live);
  });

  it('lists the keys of the asking mode, never their secrets, page by page', async () => {
    const fresh = await openAccount(app);
    for (const name of ['a', 'b', 'c']) {
      expect((await request(app, 'POST', '/v1/keys', { key: fresh.live, body: { name } })).status).to.equal(201);
    }
    const first = await request(app, 'GET', '/v1/keys?limit=2', { key: fresh.live });
    expect(first.body.data.map((key: { name: string }) => key.name)).to.deep.equal(['c', 'b']);
    expect(first.body.has_more).to.equal(true);
    const second = await request(app, 'GET', `/v1/keys?limit=2&cursor=${first.body.next_cursor}`, { key: fresh.live });
    expect(second.body.data.map((key: { name: string }) => key.name)).to.deep.equal(['a', 'live key']);
    expect(second.body).to.include({ has_more: false, next_cursor: null });
    expect(first.text + second.text).not.to.contain('secret');

    const test = await request(app, 'GET', '/v1/keys', { key: fresh.test });
    expect(test.body.data.map((key: { mode: string }) => key.mode)).to.deep.equal(['test']);
  });

  it('grants no scope the asking key lacks, and mints no live key from a test key', async () => {
    const narrow = await request(app, 'POST', '/v1/keys', { key: account.test, body: { scopes: ['keys:write'] } });
    const escalation = await request(app, 'POST', '/v1/keys', {
      key: narrow.body.secret,
      body: { scopes: ['keys:write', 'billing:write'] },
    });
    expect(escalation.status).to.equal(403);
    expect(escalation.body).to.include({ type: 'https://errors.finsynth.dev/scope-escalation' });
    expect(escalation.body.scopes).to.deep.equal(['billing:write']);
    const fromTest = await request(app, 'POST', '/v1/keys', { key: account.test });
    expect(fromTest.status).to.equal(201);
    expect(fromTest.body.mode).to.equal('test');
  });

  it('revokes a key: 401 afterwards, idempotent, and invisible across modes', async () => {
    const issued = await request(app, 'POST', '/v1/keys', { key: account.live, body: { name: 'doomed' } });
    const crossMode = await request(app, 'DELETE', `/v1/keys/${issued.body.id}`, { key: account.test });
    expect(crossMode.status).to.equal(404);
    expect(crossMode.body.type).to.equal('https://errors.finsynth.dev/key-not-found');

    const revoked = await request(app, 'DELETE', `/v1/keys/${issued.body.id}`, { key: account.live });
    expect(revoked.status).to.equal(200);
    expect(revoked.body.revoked_at).to.be.a('string');
    expect((await request(app, 'GET', '/v1/keys', { key: issued.body.secret })).status).to.equal(401);
    const again = await request(app, 'DELETE', `/v1/keys/${issued.body.id}`, { key: account.live });
    expect(again.body).to.deep.equal(revoked.body);
    expect((await request(app, 'DELETE', '/v1/keys/key_nope', { key: account.live })).status).to.equal(404);
  });

  it('tells a key its own id, mode and scopes, never its secret', async () => {
    const issued = await request(app, 'POST', '/v1/keys', {
      key: account.test,
      body: { name: 'console', scopes: ['keys:read', 'jobs:read'] },
    });
    const current = await request(app, 'GET', '/v1/keys/current', { key: issued.body.secret });
    expect(current.status).to.equal(200);
    const { secret: _secret, ...view } = issued.body;
    expect(current.body).to.deep.equal(view);
    expect(current.text).not.to.contain(issued.body.secret);

    const owner = await request(app, 'GET', '/v1/keys/current', { key: account.live });
    expect(owner.body).to.include({ mode: 'live' });
    expect(owner.body.id).not.to.equal(issued.body.id);

    const narrow = await request(app, 'POST', '/v1/keys', { key: account.test, body: { scopes: ['jobs:read'] } });
    const refused = await request(app, 'GET', '/v1/keys/current', { key: narrow.body.secret });
    expect(refused.status).to.equal(403);
    expect(refused.body).to.include({ required_scope: 'keys:read' });
    expect((await request(app, 'GET', '/v1/keys/current')).status).to.equal(401);
  });

  it('stops a revoked key on another instance of the same store', async () => {
    const other = await startTestApp({ dataDir: app.config.dataDir });
    try {
      const issued = await request(app, 'POST', '/v1/keys', { key: account.live, body: { name: 'shared' } });
      await eventually(
        async () => (await request(other, 'GET', '/v1/keys', { key: issued.body.secret })).status === 200,
      );
      await request(app, 'DELETE', `/v1/keys/${issued.body.id}`, { key: account.live });
      await eventually(
        async () => (await request(other, 'GET', '/v1/keys', { key: issued.body.secret })).status === 401,
      );
    } finally {
      await other.close();
    }
  });
});
