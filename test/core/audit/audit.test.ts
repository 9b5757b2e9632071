import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { accountStream } from '../../../core/accounts/account.js';
import type { DebitRequest } from '../../../core/accounts/credits-service.js';
import { loadConfig } from '../../../core/settings/settings.js';
import { auditStore } from '../../../core/audit/store-audit.js';
import { eventDefinitions } from '../../../core/services/event-definitions.js';
import { EventRegistry } from '../../../core/events/registry.js';
import { SqliteEventStore } from '../../../core/store/sqlite-store.js';
import { projections } from '../../../projections/index.js';
import { projectedTotals } from '../../../projections/ledger/ledger-totals.js';
import { ProjectionRunner } from '../../../projections/runner/projection-runner.js';
import { usageRecordTableFor } from '../../../projections/usage/usage-records-for-store.js';
import { openAccount, request, startTestApp, type TestAccount, type TestApp } from '../../support/app.js';

const run = promisify(execFile);

/** The read models as a runner resuming from the stored snapshots makes them. */
async function caughtUp(store: SqliteEventStore): Promise<ProjectionRunner> {
  const runner = new ProjectionRunner(store, new EventRegistry(eventDefinitions), projections);
  await runner.waitFor(await store.headPosition());
  return runner;
}

/** `npx finsynth audit`, as an operator runs it: exit code, stdout and stderr. */
async function finsynthAudit(
  dataDir: string,
  ...args: string[]
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['bin/finsynth.js', 'audit', '--data', dataDir, ...args], {
      env: { ...process.env, FINSYNTH_POSTGRES_URL: '', FINSYNTH_KURRENTDB_URL: '' },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

/** Changes a stored event's data in the sqlite file, as someone with access to the disk would. */
function tamper(
  dataDir: string,
  stream: string,
  type: string,
  change: (data: Record<string, unknown>) => void,
): { position: number; revision: number } {
  const db = new Database(join(dataDir, 'events.db'));
  try {
    const row = db
      .prepare('SELECT position, revision, data FROM events WHERE stream = ? AND type = ? ORDER BY position LIMIT 1')
      .get(stream, type) as { position: number; revision: number; data: string };
    const data = JSON.parse(row.data) as Record<string, unknown>;
    change(data);
    db.prepare('UPDATE events SET data = ? WHERE position = ?').run(JSON.stringify(data), row.position);
    return { position: row.position, revision: row.revision };
  } finally {
    db.close();
  }
}

describe('the credit audit', () => {
  let dataDir: string;
  let app: TestApp;
  let account: TestAccount;
  let other: TestAccount;

  const debit = (
    accountId: string,
    reference: string,
    credits: number,
    mode: 'live' | 'test' = 'live',
  ): DebitRequest => ({
    accountId,
    mode,
    keyId: 'key_1',
    reference,
    operation: 'quick',
    sector: 'cards',
    tables: [{ name: 'transactions', rows: credits * 500, credits }],
    credits,
  });

  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'finsynth-audit-'));
    app = await startTestApp({ dataDir });
    account = await openAccount(app, { tier: 'developer', credits: 50 });
    other = await openAccount(app, { tier: 'free', credits: 10 });
    const { credits } = app.services;
    await credits.debit(debit(account.accountId, 'req_1', 7));
    await credits.debit(debit(account.accountId, 'req_2', 5));
    await credits.refund(account.accountId, 'req_2', 'generation failed');
    await credits.debit(debit(account.accountId, 'req_3', 30, 'test'));
    await credits.reserve({
      accountId: account.accountId,
      mode: 'live',
      keyId: 'key_1',
      reference: 'job_1',
      sector: 'cards',
      tables: [],
      credits: 20,
    });
    await credits.settle(account.accountId, 'job_1', { tables: [{ name: 'transactions', rows: 6000, credits: 12 }] });
    await credits.debit(debit(other.accountId, 'req_9', 10));
    await request(app, 'POST', '/v1/billing/credits', {
      key: account.live,
      body: { pack: 'small', payment_token: 'tok_visa' },
    });
    // The usage records table up to the head, as a running server keeps it within a second.
    await app.services.usageRecords.catchUp();
  });
  after(async () => {
    await app.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('GET /v1/audit/credits replays the account: each movement with running balance, position and hash; the verdict holds', async () => {
    const response = await request(app, 'GET', '/v1/audit/credits', { key: account.live });
    expect(response.status).to.equal(200);
    const { verdict, data } = response.body;
    expect(verdict).to.include({ holds: true, chain_intact: true, balance_matches: true });
    expect(verdict.replayed).to.deep.equal({ credits_available: 10_031, credits_reserved: 0 });
    expect(verdict.projected).to.deep.equal(verdict.replayed);
    expect(data.map((m: { type: string; credits_available: number }) => [m.type, m.credits_available])).to.deep.equal([
      ['CreditsGranted', 50],
      ['CreditsDebited', 43],
      ['CreditsDebited', 38],
      ['CreditsRefunded', 43],
      ['CreditsReserved', 23],
      ['CreditsSettled', 31],
      ['CreditsPurchased', 10_031],
    ]);
    const events = await app.services.store.readStream(accountStream(account.accountId));
    const refund = events.find((e) => e.type === 'CreditsRefunded')!;
    expect(data[3]).to.include({
      position: refund.position,
      revision: refund.revision,
      hash: refund.hash,
      hash_valid: true,
      reference: 'req_2',
    });
    expect(data[4]).to.deep.include({ change: { credits_available: -20, credits_reserved: 20 }, credits_reserved: 20 });
    const page = await request(app, 'GET', '/v1/audit/credits?limit=3', { key: account.live });
    expect(page.body.data).to.have.length(3);
    expect(page.body.has_more).to.equal(true);
    const rest = await request(app, 'GET', `/v1/audit/credits?cursor=${page.body.next_cursor}`, { key: account.live });
    expect(rest.body.data.map((m: { type: string }) => m.type)[0]).to.equal('CreditsRefunded');
  });

  it('finsynth audit replays the whole store and exits 0 when everything holds', async function () {
    this.timeout(60_000); // a child process that loads the service
    await app.close();
    const { code, stdout } = await finsynthAudit(dataDir, '--json');
    expect(code).to.equal(0);
    const report = JSON.parse(stdout);
    expect(report).to.include({ holds: true, accounts: 2, usage_records_until: report.events });
    expect(report.differences).to.deep.equal([]);
    expect(report.chain_breaks).to.deep.equal([]);

    const mistyped = await finsynthAudit(dataDir, '--account', 'acc_nobody');
    expect(mistyped.code, 'an account the store does not have is not an audit that holds').to.equal(1);
    expect(mistyped.stderr).to.include('the store has no account "acc_nobody"');
  });

  it('names an account whose usage records the table holds wrong, in a copy of the store, every event intact; exit code 1', async function () {
    this.timeout(60_000);
    const copy = await mkdtemp(join(tmpdir(), 'finsynth-audit-copy-'));
    try {
      await cp(dataDir, copy, { recursive: true });
      const db = new Database(join(copy, 'events.db'));
      db.prepare("UPDATE usage_records SET credits = credits + 1 WHERE account = ? AND reference = 'job_1'").run(
        account.accountId,
      );
      db.close();
      const { code, stdout } = await finsynthAudit(copy, '--json');
      expect(code).to.equal(1);
      const report = JSON.parse(stdout);
      expect(report.chain_breaks).to.deep.equal([]);
      const replayed = {
        live: { records: 3, credits: 7 + 5 + 12, refunded_records: 1, refunded_credits: 5 },
        test: { records: 1, credits: 30, refunded_records: 0, refunded_credits: 0 },
      };
      expect(report.differences).to.deep.equal([
        {
          account_id: account.accountId,
          what: 'usage_records',
          replayed,
          projected: { ...replayed, live: { ...replayed.live, credits: 25 } },
        },
      ]);
      const human = await finsynthAudit(copy);
      expect(human.stdout).to.include(
        `DIFFERS       account ${account.accountId} usage_records: ` +
          `replayed ${JSON.stringify(replayed)}, the records table shows`,
      );
      expect(human.stdout).to.include('the audit does NOT hold');
    } finally {
      await rm(copy, { recursive: true, force: true });
    }
  });

  it('names a credit event tampered with in the sqlite file, and the balance and usage it falsifies; exit code 1', async function () {
    this.timeout(60_000);
    const tampered = tamper(dataDir, accountStream(account.accountId), 'CreditsDebited', (data) => {
      data.credits = 1;
      (data.tables as { credits: number }[])[0]!.credits = 1;
    });
    const { code, stdout } = await finsynthAudit(dataDir, '--json');
    expect(code).to.equal(1);
    const report = JSON.parse(stdout);
    expect(report.holds).to.equal(false);
    expect(report.chain_breaks).to.deep.equal([
      {
        stream: accountStream(account.accountId),
        revision: tampered.revision,
        position: tampered.position,
        reason: 'the hash does not match the event content: the stored event was altered',
      },
    ]);
    expect(report.differences).to.deep.include({
      account_id: account.accountId,
      what: 'balance',
      replayed: { credits_available: 10_037, credits_reserved: 0 },
      projected: { credits_available: 10_031, credits_reserved: 0 },
    });
    // The records table still holds the debit as charged.
    expect(report.differences.map((d: { what: string }) => d.what)).to.deep.equal([
      'balance',
      'usage',
      'usage_records',
    ]);

    const human = await finsynthAudit(dataDir, '--account', account.accountId);
    expect(human.code).to.equal(1);
    expect(human.stdout).to.include(
      `CHAIN BROKEN  ${accountStream(account.accountId)} revision ${tampered.revision} (position ${tampered.position})`,
    );
    expect(human.stdout).to.include('the audit does NOT hold');
  });

  it('audited in ranges by worker threads, the store gives the same report', async () => {
    const store = new SqliteEventStore(join(dataDir, 'events.db'));
    try {
      const config = loadConfig({}, { dataDir });
      const projected = {
        ...projectedTotals(await caughtUp(store)),
        records: await usageRecordTableFor(store).totals(),
      };
      const whole = await auditStore(store, projected);
      const ranges = await auditStore(store, projected, {
        parallel: { config, workers: 3, minEventsPerWorker: 1, minChunk: 1 },
      });
      expect(ranges).to.deep.equal(whole);
      expect(ranges.chain_breaks).to.have.length(1);
      expect(ranges.differences.map((d) => d.what)).to.deep.equal(['balance', 'usage', 'usage_records']);
      expect((await auditStore(store, projected, { accountId: other.accountId })).holds).to.equal(true);
    } finally {
      await store.close();
    }
  });

  it('the audit endpoint names the tampered event too', async () => {
    app = await startTestApp({ dataDir });
    const response = await request(app, 'GET', '/v1/audit/credits', { key: account.live });
    expect(response.body.verdict).to.include({ holds: false, chain_intact: false });
    expect(response.body.verdict.chain_breaks).to.have.length(1);
    expect(
      response.body.data
        .filter((m: { hash_valid: boolean }) => !m.hash_valid)
        .map((m: { reference: string }) => m.reference),
    ).to.deep.equal(['req_1']);
  });
});
