import { expect } from 'chai';
import { openAccount, request, startTestApp, type TestAccount, type TestApp } from '../../support/app.js';
import { requestFingerprint } from '../../../api/middleware/idempotency.js';
import { TestClock } from '../../../core/clock.js';
import type { Mode } from '../../../core/events/envelope.js';
import {
  CLAIM_LEASE_MS,
  idempotencyDecider,
  idempotencyStream,
  type IdempotencyCommand,
} from '../../../core/idempotency/idempotency.js';

/** 1,000 transactions: 2 credits. */
const body = { sector: 'cards', seed: 5, tables: [{ name: 'transactions', rows: 1000 }] };
const CREDITS = 2;

/**
 * A quick generation retried under its Idempotency-Key is charged once in all: after an instance died
 * between its debit and the keeping of its response (the retry takes its claim over and gives that
 * debit back as it charges its own), after an attempt that failed and refunded its debit (the retry is
 * charged, once, not served for free), and after one whose refund is still owed when the retry comes.
 */
describe('quick generation retried under an Idempotency-Key', () => {
  let app: TestApp;
  let account: TestAccount;
  const clock = new TestClock(new Date());

  before(async () => {
    app = await startTestApp({ clock });
    account = await openAccount(app, { credits: 100 });
  });
  after(() => app.close());

  const quick = (key: string, idempotencyKey: string, accept = 'application/json') =>
    request(app, 'POST', '/v1/generate/quick', { key, body, headers: { accept, 'idempotency-key': idempotencyKey } });
  const balance = async () =>
    (await request(app, 'GET', '/v1/billing/credits', { key: account.live })).body.credits_available as number;

  /** What an attempt of this request leaves in the store, done through the services as its instance did them. */
  function attempt(mode: Mode, idempotencyKey: string, requestId: string) {
    const claim = (command: IdempotencyCommand) =>
      app.services.commands.handle(
        idempotencyDecider,
        idempotencyStream(account.accountId, mode, idempotencyKey),
        command,
      );
    const at = () => clock.now().toISOString();
    return {
      claim: () =>
        claim({
          type: 'ClaimKey',
          accountId: account.accountId,
          mode,
          fingerprint: requestFingerprint('POST', '/v1/generate/quick', {}, body),
          requestId,
          at: at(),
        }),
      debit: (reference: string) =>
        app.services.credits.debit({
          accountId: account.accountId,
          mode,
          keyId: null,
          reference,
          operation: 'quick_generation',
          sector: 'cards',
          tables: [{ name: 'transactions', rows: 1000, credits: CREDITS }],
          credits: CREDITS,
        }),
      refund: (reference: string) =>
        app.services.credits.refund(account.accountId, reference, 'quick generation failed: the generator broke'),
      release: () => claim({ type: 'ReleaseKey', requestId, reason: 'generation-failed', at: at() }),
    };
  }

  /** The debits of this mode taken and not refunded: one per charged request. */
  async function debitsHeld(mode: Mode): Promise<string[]> {
    const held = new Set<string>();
    for (const { type, data } of await app.services.store.readStream(`account-${account.accountId}`)) {
      const { reference, mode: movedIn } = data as { reference: string; mode: Mode };
      if (movedIn !== mode) continue;
      if (type === 'CreditsDebited') held.add(reference);
      if (type === 'CreditsRefunded') held.delete(reference);
    }
    return [...held];
  }

  async function auditHolds(): Promise<void> {
    const audit = await request(app, 'GET', '/v1/audit/credits', { key: account.live });
    expect(audit.status).to.equal(200);
    expect(audit.body.verdict.holds, JSON.stringify(audit.body.verdict)).to.equal(true);
  }

  it('an instance died after its debit: the retry taking its claim over gives it back, charges its own', async () => {
    const before = await balance();
    const held = await debitsHeld('live');
    const dead = attempt('live', 'k-died-after-debit', 'req_died_after_debit');
    await dead.claim();
    await dead.debit('req_died_after_debit');
    expect((await quick(account.live, 'k-died-after-debit')).status).to.equal(409);

    clock.advance({ ms: CLAIM_LEASE_MS + 1 });
    const retry = await quick(account.live, 'k-died-after-debit', 'text/csv');
    expect(retry.status, retry.text.slice(0, 300)).to.equal(200);
    expect(retry.text.trimEnd().split(/\r?\n/)).to.have.length(1001);
    expect(await balance()).to.equal(before - CREDITS);
    expect(await debitsHeld('live')).to.deep.equal([...held, 'req_died_after_debit.2']);

    const repeat = await quick(account.live, 'k-died-after-debit', 'text/csv');
    expect(repeat.headers.get('idempotent-replayed')).to.equal('true');
    expect(await balance()).to.equal(before - CREDITS);
    await auditHolds();
  });

  it('a test key: the retry that takes the claim over gives back the usage the dead attempt recorded', async () => {
    const held = await debitsHeld('test');
    const dead = attempt('test', 'k-sandbox-died', 'req_sandbox_died');
    await dead.claim();
    await dead.debit('req_sandbox_died');
    clock.advance({ ms: CLAIM_LEASE_MS + 1 });
    const retry = await quick(account.test, 'k-sandbox-died');
    expect(retry.status, retry.text.slice(0, 300)).to.equal(200);
    expect(retry.body).to.include({ credits_charged: 0, mode: 'test' });
    expect(await debitsHeld('test')).to.deep.equal([...held, 'req_sandbox_died.2']);
  });

  it('an attempt failed and refunded its debit: the retry is charged, once, whether the attempt released its claim or died before', async () => {
    const before = await balance();
    const held = await debitsHeld('live');
    const failed = attempt('live', 'k-failed-cleanly', 'req_failed_cleanly');
    await failed.claim();
    await failed.debit('req_failed_cleanly');
    await failed.refund('req_failed_cleanly');
    await failed.release();
    const retry = await quick(account.live, 'k-failed-cleanly');
    expect(retry.status, retry.text.slice(0, 300)).to.equal(200);
    expect(retry.body.credits_charged).to.equal(CREDITS);
    expect(await balance()).to.equal(before - CREDITS);

    const refundedThenDied = attempt('live', 'k-refunded-then-died', 'req_refunded_then_died');
    await refundedThenDied.claim();
    await refundedThenDied.debit('req_refunded_then_died');
    await refundedThenDied.refund('req_refunded_then_died');
    clock.advance({ ms: CLAIM_LEASE_MS + 1 });
    const takeover = await quick(account.live, 'k-refunded-then-died');
    expect(takeover.status, takeover.text.slice(0, 300)).to.equal(200);
    expect(await balance()).to.equal(before - 2 * CREDITS);
    expect(await debitsHeld('live')).to.have.length(held.length + 2);
    await auditHolds();
  });

  it('an attempt failed cleanly, its retry died after its debit: the next retry is not charged again', async () => {
    const before = await balance();
    const held = await debitsHeld('live');
    const failed = attempt('live', 'k-failed-then-died', 'req_first_of_three');
    await failed.claim();
    await failed.debit('req_first_of_three');
    await failed.refund('req_first_of_three');
    await failed.release();
    // The second attempt charges under the next reference after the refunded one (docs/credits.md), then its
    // instance dies.
    const died = attempt('live', 'k-failed-then-died', 'req_second_of_three');
    await died.claim();
    await died.debit('req_first_of_three.2');

    clock.advance({ ms: CLAIM_LEASE_MS + 1 });
    const retry = await quick(account.live, 'k-failed-then-died');
    expect(retry.status, retry.text.slice(0, 300)).to.equal(200);
    expect(await balance()).to.equal(before - CREDITS);
    expect(await debitsHeld('live')).to.deep.equal([...held, 'req_first_of_three.3']);
    await auditHolds();
  });

  it('an attempt failed, its refund still owed at the retry: charged once, the late refund gives nothing', async () => {
    const before = await balance();
    const held = await debitsHeld('live');
    // Its instance kept the refund on disk (the store refused it) and dies; the claim is left to expire.
    const owing = attempt('live', 'k-refund-owed', 'req_refund_owed');
    await owing.claim();
    await owing.debit('req_refund_owed');
    clock.advance({ ms: CLAIM_LEASE_MS + 1 });
    const retry = await quick(account.live, 'k-refund-owed');
    expect(retry.status, retry.text.slice(0, 300)).to.equal(200);
    expect(await balance()).to.equal(before - CREDITS);

    // The owed refund reaches the store after the retry: its debit was given back already.
    const late = { accountId: account.accountId, reference: 'req_refund_owed', reason: 'quick generation failed' };
    expect(await app.services.refunds.refund(late)).to.equal('refunded');
    expect(await balance()).to.equal(before - CREDITS);
    expect(await debitsHeld('live')).to.deep.equal([...held, 'req_refund_owed.2']);
    await auditHolds();
  });
});
