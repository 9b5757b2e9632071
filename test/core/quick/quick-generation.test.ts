import { expect } from 'chai';
import { fileURLToPath } from 'node:url';
import { loadPricing } from '../../../core/pricing/pricing.js';
import { auditStore } from '../../../core/audit/store-audit.js';
import { projectedTotals } from '../../../projections/ledger/ledger-totals.js';
import { openAccount, request, startTestApp, type TestAccount, type TestApp } from '../../support/app.js';

const failingPack = fileURLToPath(new URL('../../support/packs/failing-pack/', import.meta.url));

/**
 * The real app on an ephemeral port, with the failing pack installed and the scale tier's rate limit
 * lifted: 200 requests in the same second must meet the credit limit, not the rate limit.
 */
function startApp(): Promise<TestApp> {
  const pricing = loadPricing();
  pricing.tiers.scale.rate_limit_per_s = 10_000;
  return startTestApp({ config: { packs: [failingPack] }, services: { pricing } });
}

// merchants cost 1 credit per 1,000 rows, and at least 1: each of these requests costs exactly 1 credit.
const oneCredit = { sector: 'cards', tables: [{ name: 'merchants', rows: 10 }] };

describe('quick generation and credits, over HTTP', () => {
  let app: TestApp;
  before(async () => {
    app = await startApp();
  });
  after(() => app.close());

  const balance = async (account: TestAccount) =>
    (await request(app, 'GET', '/v1/billing/credits', { key: account.live })).body;

  it('200 concurrent quick generations on a balance that covers 37: 37 succeed, 163 get 402, the balance ends at zero, the audit holds', async () => {
    const account = await openAccount(app, { credits: 37 });
    const responses = await Promise.all(
      Array.from({ length: 200 }, () =>
        request(app, 'POST', '/v1/generate/quick', { key: account.live, body: oneCredit }),
      ),
    );
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 200)).to.have.length(37);
    expect(statuses.filter((status) => status === 402)).to.have.length(163);
    const refused = responses.find((response) => response.status === 402)!;
    expect(refused.body).to.include({
      title: 'Insufficient Credits',
      status: 402,
      credits_required: 1,
      credits_available: 0,
      instance: '/v1/generate/quick',
    });
    expect(refused.body.type).to.match(/\/insufficient-credits$/);
    expect(refused.body.detail).to.equal('This request needs 1 credit; the account has 0 available.');
    expect(await balance(account)).to.include({ credits_available: 0, credits_reserved: 0 });

    const audit = await request(app, 'GET', '/v1/audit/credits?limit=100', { key: account.live });
    expect(audit.body.verdict).to.include({ holds: true, chain_intact: true, balance_matches: true });
    expect(audit.body.data.filter((movement: { type: string }) => movement.type === 'CreditsDebited')).to.have.length(
      37,
    );
    const usage = await request(app, 'GET', '/v1/usage', { key: account.live });
    expect(usage.body).to.include({ mode: 'live', operations: 37, rows: 370, credits: 37 });

    await app.services.projections.waitFor(await app.services.store.headPosition());
    const report = await auditStore(app.services.store, projectedTotals(app.services.projections));
    expect(report.holds, JSON.stringify(report)).to.equal(true);
  });

  it('the same request retried with the same Idempotency-Key is charged once', async () => {
    const account = await openAccount(app, { credits: 10 });
    const send = () =>
      request(app, 'POST', '/v1/generate/quick', {
        key: account.live,
        body: oneCredit,
        headers: { 'Idempotency-Key': 'quick-once' },
      });
    const first = await send();
    const second = await send();
    expect([first.status, second.status]).to.deep.equal([200, 200]);
    expect(second.headers.get('idempotent-replayed')).to.equal('true');
    expect(second.text).to.equal(first.text);
    expect(await balance(account)).to.include({ credits_available: 9 });
    const records = await request(app, 'GET', '/v1/usage/records', { key: account.live });
    expect(records.body.data).to.have.length(1);
  });

  it('30 identical requests sent at once with one Idempotency-Key: one is performed and charged, the others are told it is in flight', async () => {
    const account = await openAccount(app, { credits: 10 });
    const send = () =>
      request(app, 'POST', '/v1/generate/quick', {
        key: account.live,
        body: oneCredit,
        headers: { 'Idempotency-Key': 'quick-at-once' },
      });
    const statuses = (await Promise.all(Array.from({ length: 30 }, send))).map((response) => response.status);
    expect(statuses.filter((status) => status === 200)).to.have.length(1);
    expect(statuses.filter((status) => status === 409)).to.have.length(29);
    const retry = await send();
    expect(retry.status).to.equal(200);
    expect(retry.headers.get('idempotent-replayed')).to.equal('true');
    expect(await balance(account)).to.include({ credits_available: 9 });
    const records = await request(app, 'GET', '/v1/usage/records', { key: account.live });
    expect(records.body.data).to.have.length(1);
  });

  it('a test key generates in the sandbox: usage records it as test, no credit moves', async () => {
    const account = await openAccount(app, { credits: 0 });
    const response = await request(app, 'POST', '/v1/generate/quick', { key: account.test, body: oneCredit });
    expect(response.status).to.equal(200);
    expect(await balance(account)).to.include({ credits_available: 0 });
    const usage = await request(app, 'GET', '/v1/usage', { key: account.test });
    expect(usage.body).to.include({ mode: 'test', operations: 1, credits: 1 });
    const live = await request(app, 'GET', '/v1/usage', { key: account.live });
    expect(live.body).to.include({ mode: 'live', operations: 0, credits: 0 });
  });

  it('a generation that fails after its debit is refunded, and the audit shows both movements', async () => {
    const account = await openAccount(app, { credits: 20 });
    const response = await request(app, 'POST', '/v1/generate/quick', {
      key: account.live,
      body: { sector: 'failing', tables: [{ name: 'entries', rows: 1000 }] },
    });
    expect(response.status).to.be.at.least(500);
    expect(response.headers.get('content-type')).to.match(/application\/problem\+json/);
    expect(await balance(account)).to.include({ credits_available: 20 });
    const audit = await request(app, 'GET', '/v1/audit/credits', { key: account.live });
    expect(audit.body.verdict).to.include({ holds: true });
    const movements = audit.body.data.map(
      (m: { type: string; change: { credits_available: number }; credits_available: number }) => [
        m.type,
        m.change.credits_available,
        m.credits_available,
      ],
    );
    expect(movements).to.deep.equal([
      ['CreditsGranted', 20, 20],
      ['CreditsDebited', -5, 15],
      ['CreditsRefunded', 5, 20],
    ]);
    const records = await request(app, 'GET', '/v1/usage/records', { key: account.live });
    expect(records.body.data[0]).to.include({ refunded: true, credits: 5, sector: 'failing' });
  });

  it("a generation whose error says more than a refund's reason holds is refunded too", async () => {
    const account = await openAccount(app, { credits: 20 });
    const response = await request(app, 'POST', '/v1/generate/quick', {
      key: account.live,
      body: { sector: 'failing', tables: [{ name: 'verbose_entries', rows: 1000 }] },
    });
    expect(response.status).to.be.at.least(500);
    expect(response.body.detail).to.include('says so at length');
    expect(await balance(account)).to.include({ credits_available: 20 });
    const records = await request(app, 'GET', '/v1/usage/records', { key: account.live });
    expect(records.body.data[0]).to.include({ refunded: true, credits: 5, sector: 'failing' });
  });
});
