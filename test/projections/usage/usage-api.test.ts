import { expect } from 'chai';
import { encodeCursor } from '../../../api/http/pagination.js';
import { TestClock } from '../../../core/clock.js';
import type { DebitRequest } from '../../../core/accounts/credits-service.js';
import { openAccount, request, startTestApp, type TestAccount, type TestApp } from '../../support/app.js';

describe('usage over HTTP', () => {
  const clock = new TestClock('2020-01-01T00:00:00.000Z');
  let app: TestApp;
  let account: TestAccount;
  let liveKeyId: string;

  const debit = (
    reference: string,
    mode: 'live' | 'test',
    sector: string,
    rows: number,
    credits: number,
  ): DebitRequest => ({
    accountId: account.accountId,
    mode,
    keyId: mode === 'live' ? liveKeyId : 'key_test',
    reference,
    operation: 'quick',
    sector,
    tables: [{ name: 'transactions', rows, credits }],
    credits,
  });

  before(async () => {
    app = await startTestApp({ clock });
    account = await openAccount(app, { tier: 'developer', credits: 100 });
    liveKeyId = (await request(app, 'GET', '/v1/keys', { key: account.live })).body.data[0].id;
    const { credits } = app.services;
    await credits.debit(debit('req_1', 'live', 'cards', 2000, 4));
    await credits.debit(debit('req_2', 'live', 'banking', 500, 1));
    await credits.debit(debit('req_3', 'test', 'cards', 9000, 18));
    await credits.debit(debit('req_4', 'live', 'cards', 1000, 2));
    await credits.refund(account.accountId, 'req_4', 'generation failed');
    await credits.reserve({
      accountId: account.accountId,
      mode: 'live',
      keyId: liveKeyId,
      reference: 'job_1',
      sector: 'lending',
      tables: [{ name: 'loans', rows: 10_000, credits: 20 }],
      credits: 20,
    });
    await credits.settle(account.accountId, 'job_1', { tables: [{ name: 'loans', rows: 5000, credits: 10 }] });
  });
  after(() => app.close());

  it("sums one mode's consumption over a period, per day, sector, table and key; refunds are not used", async () => {
    const response = await request(app, 'GET', '/v1/usage?from=2000-01-01T00:00:00Z', { key: account.live });
    expect(response.status).to.equal(200);
    const live = response.body;
    expect(live).to.include({ mode: 'live', operations: 3, rows: 7500, credits: 15 });
    expect(live.refunded).to.deep.equal({ operations: 1, credits: 2 });
    expect(live.by_sector).to.deep.equal([
      { sector: 'banking', operations: 1, rows: 500, credits: 1 },
      { sector: 'cards', operations: 1, rows: 2000, credits: 4 },
      { sector: 'lending', operations: 1, rows: 5000, credits: 10 },
    ]);
    expect(live.by_table).to.deep.include({
      sector: 'lending',
      table: 'loans',
      operations: 1,
      rows: 5000,
      credits: 10,
    });
    expect(live.by_key).to.deep.equal([{ key_id: liveKeyId, operations: 3, rows: 7500, credits: 15 }]);
    expect(live.by_day).to.have.length(1);
    expect(live.by_day[0]).to.include({ operations: 3, credits: 15 });
    const sandbox = await request(app, 'GET', '/v1/usage?from=2000-01-01T00:00:00Z&mode=test', { key: account.live });
    const test = sandbox.body;
    expect(test).to.include({ mode: 'test', operations: 1, rows: 9000, credits: 18 });
    expect(test.refunded).to.deep.equal({ operations: 0, credits: 0 });
    expect(test.by_key).to.deep.equal([{ key_id: 'key_test', operations: 1, rows: 9000, credits: 18 }]);
    expect((await request(app, 'GET', '/v1/billing/credits', { key: account.live })).body).to.include({
      credits_available: 85,
    });
  });

  it('a period that holds none of the work sums to zero; a period ending before it starts is refused', async () => {
    const empty = await request(app, 'GET', '/v1/usage?from=2001-01-01T00:00:00Z&to=2001-02-01T00:00:00Z', {
      key: account.live,
    });
    expect(empty.body).to.deep.include({ from: '2001-01-01T00:00:00.000Z', to: '2001-02-01T00:00:00.000Z' });
    expect(empty.body).to.include({ mode: 'live', operations: 0, credits: 0 });
    const reversed = await request(app, 'GET', '/v1/usage?from=2001-02-01T00:00:00Z&to=2001-01-01T00:00:00Z', {
      key: account.live,
    });
    expect(reversed.status).to.equal(400);
    const malformed = await request(app, 'GET', '/v1/usage?from=yesterday', { key: account.live });
    expect(malformed.status).to.equal(400);
  });

  it('refuses a time that RFC 3339 allows but no instant is (a leap second, a year past 9999) with a 400 naming the parameter', async () => {
    for (const path of [
      '/v1/usage?from=2026-06-30T23:59:60Z',
      '/v1/usage/records?to=2026-06-30T23:59:60Z',
      '/v1/jobs?created_after=2026-06-30T23:59:60Z',
      '/v1/usage?from=9999-12-31T23:59:59-23:59',
    ]) {
      const refused = await request(app, 'GET', path, { key: account.live });
      expect(refused.status, path).to.equal(400);
      expect(refused.body.type, path).to.equal('https://errors.finsynth.dev/validation-failed');
      expect(refused.body.errors[0].pointer, path).to.match(/^\/(from|to|created_after)$/);
    }
  });

  it('lists the records of one mode newest first, filtered by period, page by page', async () => {
    const live = await request(app, 'GET', '/v1/usage/records', { key: account.live });
    const references = live.body.data.map((r: { reference: string }) => r.reference);
    expect(references).to.deep.equal(['job_1', 'req_4', 'req_2', 'req_1']);
    expect(live.body.data[1]).to.include({ refunded: true, credits: 2, operation: 'quick', mode: 'live' });
    expect(live.body.data[0]).to.include({ operation: 'job', sector: 'lending', rows: 5000, credits: 10 });
    expect(live.body.data[0].key_id).to.equal(liveKeyId);
    const test = await request(app, 'GET', '/v1/usage/records?mode=test', { key: account.live });
    const tested = test.body.data.map((r: { reference: string; mode: string }) => [r.reference, r.mode]);
    expect(tested).to.deep.equal([['req_3', 'test']]);
    const first = await request(app, 'GET', '/v1/usage/records?mode=live&limit=2', { key: account.live });
    expect(first.body).to.include({ has_more: true });
    const rest = await request(app, 'GET', `/v1/usage/records?mode=live&limit=2&cursor=${first.body.next_cursor}`, {
      key: account.live,
    });
    expect(rest.body.data.map((r: { reference: string }) => r.reference)).to.deep.equal(['req_2', 'req_1']);
    expect(rest.body).to.include({ has_more: false, next_cursor: null });
    const later = await request(app, 'GET', '/v1/usage/records?from=2100-01-01T00:00:00Z', { key: account.live });
    expect(later.body.data).to.deep.equal([]);
  });

  // These open an account of their own, whose tier's rate limit the requests above leave untouched.
  it('refuses records of a period that ends before it starts, as the summary of that period is refused', async () => {
    const { live } = await openAccount(app);
    const reversed = await request(app, 'GET', '/v1/usage/records?from=2001-02-01T00:00:00Z&to=2001-01-01T00:00:00Z', {
      key: live,
    });
    expect(reversed.status).to.equal(400);
    const message = 'the period ends (2001-01-01T00:00:00.000Z) before it starts (2001-02-01T00:00:00.000Z)';
    expect(reversed.body.detail).to.equal(message);
    // The documented 400 of both operations: a query parameter that fails its check.
    expect(reversed.body.type).to.match(/\/validation-failed$/);
    expect(reversed.body.errors).to.deep.equal([{ in: 'query', pointer: '/to', message }]);
    const summary = await request(app, 'GET', '/v1/usage?from=2001-02-01T00:00:00Z&to=2001-01-01T00:00:00Z', {
      key: live,
    });
    expect([summary.status, summary.body.type, summary.body.detail]).to.deep.equal([400, reversed.body.type, message]);
  });

  it('refuses a cursor naming a position no record can have (postgres answered 500: out of range for bigint)', async () => {
    const { live } = await openAccount(app);
    for (const position of ['99999999999999999999', '9223372036854775808', '9007199254740992']) {
      const forged = await request(app, 'GET', `/v1/usage/records?cursor=${encodeCursor(`usg_${position}`)}`, {
        key: live,
      });
      expect(forged.status, position).to.equal(400);
      expect(forged.body.detail, position).to.equal('the cursor does not belong to this list');
      expect(forged.body.errors, position).to.deep.equal([
        { in: 'query', pointer: '/cursor', message: forged.body.detail },
      ]);
    }
  });

  it('needs the usage:read scope', async () => {
    const issued = await request(app, 'POST', '/v1/keys', { key: account.live, body: { scopes: ['generate'] } });
    const response = await request(app, 'GET', '/v1/usage', { key: issued.body.secret });
    expect(response.status).to.equal(403);
  });
});
