import { expect } from 'chai';
import { openCheckpoint } from '../../../core/audit/log/checkpoint.js';
import { eventLeafHash } from '../../../core/audit/log/hashes.js';
import { parseVerifierKey } from '../../../core/audit/log/note.js';
import { verifyConsistency, verifyInclusion } from '../../../core/audit/log/verify.js';
import { verifyBundle } from '../../../core/audit/log/verify-bundle.js';
import { accountStream } from '../../../core/accounts/account.js';
import { openAccount, request, startTestApp, type TestAccount, type TestApp } from '../../support/app.js';
import { ResponseChecker } from '../../support/openapi.js';
import type { JsonBody } from '../../support/json-body.js';

const unbase64 = (hashes: string[]): Buffer[] => hashes.map((hash) => Buffer.from(hash, 'base64'));

describe('the audit log over HTTP: checkpoint, public key, proofs, export', function () {
  this.timeout(60_000);
  let app: TestApp;
  let alice: TestAccount;
  let bob: TestAccount;
  let checker: ResponseChecker;

  before(async () => {
    // Checkpoints every 50 ms, so that one covering the events of a test is signed at once.
    app = await startTestApp({ config: { auditCheckpointIntervalMs: 50 } });
    alice = await openAccount(app, { credits: 1_000 });
    bob = await openAccount(app, { credits: 500 });
    checker = new ResponseChecker((await request(app, 'GET', '/v1/openapi.json')).body);
  });
  after(() => app?.close());

  /** A live debit of the account (a quick generation), so that its history has movements of its own. */
  const spend = async (account: TestAccount) => {
    const response = await request(app, 'POST', '/v1/generate/quick', {
      key: account.live,
      body: { sector: 'cards', tables: [{ name: 'cardholders', rows: 10 }], seed: 1 },
    });
    expect(response.status, response.text).to.equal(200);
  };

  const verifier = async () => parseVerifierKey((await request(app, 'GET', '/v1/audit/public-key')).text);

  /** The latest checkpoint, once it covers every event the store holds now. */
  async function checkpointOfEverything(): Promise<{ note: string; size: number; root: Buffer }> {
    const events = (await app.services.store.readAll()).length;
    for (;;) {
      const response = await request(app, 'GET', '/v1/audit/checkpoint');
      checker.check('GET', '/v1/audit/checkpoint', response);
      const opened = openCheckpoint(response.text, await verifier());
      if (!opened.verified) throw new Error(opened.reason);
      if (opened.checkpoint.size >= events) return { ...opened.checkpoint, note: response.text };
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  it('serves the verifier key and the latest signed checkpoint without a key, as text', async () => {
    const key = await request(app, 'GET', '/v1/audit/public-key');
    checker.check('GET', '/v1/audit/public-key', key);
    expect(key.headers.get('content-type')).to.equal('text/plain; charset=utf-8');
    expect(key.text).to.equal(`${app.services.auditLog.verifierKey}\n`);
    const checkpoint = await checkpointOfEverything();
    expect(checkpoint.note.split('\n')[0]).to.equal(app.services.auditLog.origin);
    expect(checkpoint.size).to.equal((await app.services.store.readAll()).length);
  });

  it('proves that a later checkpoint extends an earlier one, to any key with audit:read', async () => {
    const earlier = await checkpointOfEverything();
    await spend(alice);
    await spend(bob);
    const later = await checkpointOfEverything();
    expect(later.size).to.be.greaterThan(earlier.size);
    for (const key of [alice.live, alice.test]) {
      const response = await request(app, 'GET', `/v1/audit/proofs/consistency?from=${earlier.size}&to=${later.size}`, {
        key,
      });
      checker.check('GET', '/v1/audit/proofs/consistency', response);
      expect(response.status).to.equal(200);
      const proof = unbase64(response.body.proof);
      expect(verifyConsistency(earlier.size, later.size, proof, earlier.root, later.root)).to.equal(true);
      expect(verifyConsistency(earlier.size, later.size, proof, later.root, earlier.root)).to.equal(false);
    }
  });

  it('refuses proofs between sizes the log does not hold, or given backwards, or without a key', async () => {
    const { size } = await checkpointOfEverything();
    const beyond = await request(app, 'GET', `/v1/audit/proofs/consistency?from=1&to=${size + 1000}`, {
      key: alice.live,
    });
    checker.check('GET', '/v1/audit/proofs/consistency', beyond);
    expect([beyond.status, beyond.body.type]).to.deep.equal([400, 'https://errors.finsynth.dev/tree-size-exceeded']);
    expect(beyond.body.tree_size).to.be.at.least(size);
    const backwards = await request(app, 'GET', `/v1/audit/proofs/consistency?from=3&to=2`, { key: alice.live });
    checker.check('GET', '/v1/audit/proofs/consistency', backwards);
    expect([backwards.status, backwards.body.type]).to.deep.equal([400, 'https://errors.finsynth.dev/bad-request']);
    const anonymous = await request(app, 'GET', `/v1/audit/proofs/consistency?from=1&to=2`);
    expect(anonymous.status).to.equal(401);
    const notNumbers = await request(app, 'GET', `/v1/audit/proofs/consistency?from=a&to=2`, { key: alice.live });
    expect(notNumbers.body.type).to.equal('https://errors.finsynth.dev/validation-failed');
  });

  it("proves the inclusion of the account's own events only, hashes only", async () => {
    await spend(alice);
    const { size, root } = await checkpointOfEverything();
    const own = await app.services.store.readStream(accountStream(alice.accountId));
    const event = own.at(-1)!;
    const response = await request(app, 'GET', `/v1/audit/proofs/inclusion?position=${event.position}&size=${size}`, {
      key: alice.live,
    });
    checker.check('GET', '/v1/audit/proofs/inclusion', response);
    expect(response.status, response.text).to.equal(200);
    expect(response.body).to.include({ position: event.position, tree_size: size, event_hash: event.hash });
    const proof = unbase64(response.body.proof);
    expect(verifyInclusion(response.body.leaf_index, size, eventLeafHash(event.hash), proof, root)).to.equal(true);

    const bobs = (await app.services.store.readStream(accountStream(bob.accountId))).at(-1)!;
    const missing = 10 ** 12;
    for (const position of [bobs.position, missing]) {
      const refused = await request(app, 'GET', `/v1/audit/proofs/inclusion?position=${position}&size=${size}`, {
        key: alice.live,
      });
      checker.check('GET', '/v1/audit/proofs/inclusion', refused);
      // Another account's event and no event at all answer alike: nothing is revealed of others.
      expect([refused.status, refused.body.type, refused.body.detail]).to.deep.equal([
        404,
        'https://errors.finsynth.dev/not-found',
        `the account has no event at position ${position}`,
      ]);
    }
    const tooSmall = await request(app, 'GET', `/v1/audit/proofs/inclusion?position=${event.position}&size=1`, {
      key: alice.live,
    });
    checker.check('GET', '/v1/audit/proofs/inclusion', tooSmall);
    expect(response.body.leaf_index, 'the event is not the first of the log').to.be.greaterThan(0);
    expect([tooSmall.status, tooSmall.body.type]).to.deep.equal([404, 'https://errors.finsynth.dev/not-in-tree']);
    const testKey = await request(app, 'GET', `/v1/audit/proofs/inclusion?position=${event.position}&size=${size}`, {
      key: alice.test,
    });
    checker.check('GET', '/v1/audit/proofs/inclusion', testKey);
    expect(testKey.body.type).to.equal('https://errors.finsynth.dev/live-key-required');
  });

  it("exports the account's history as a bundle that verifies offline, with the balance the service shows", async () => {
    await spend(alice);
    await spend(bob);
    const kept = await checkpointOfEverything();
    await spend(alice);
    const response = await request(app, 'GET', `/v1/audit/credits/export?consistency_from=${kept.size}`, {
      key: alice.live,
    });
    checker.check('GET', '/v1/audit/credits/export', response);
    expect(response.status, response.text).to.equal(200);
    expect(response.headers.get('content-type')).to.equal('application/x-ndjson');
    expect(response.headers.get('content-disposition')).to.match(
      new RegExp(`^attachment; filename="finsynth-audit-${alice.accountId}-\\d+\\.ndjson"$`),
    );
    const lines = response.text.trimEnd().split('\n');
    const header = JSON.parse(lines[0]) as JsonBody;
    const balance = await request(app, 'GET', '/v1/billing/credits', { key: alice.live });
    expect(header.balance).to.deep.equal({
      credits_available: balance.body.credits_available,
      credits_reserved: balance.body.credits_reserved,
    });
    const own = await app.services.store.readStream(accountStream(alice.accountId));
    const entries = lines.slice(1).map((line) => JSON.parse(line) as JsonBody);
    // Alice's events, all of them and nothing of Bob's.
    expect(entries.map((entry) => entry.event.id)).to.deep.equal(own.map((event) => event.id));

    const report = await verifyBundle(response.text, { verifier: await verifier(), saved: kept.note });
    expect(report.failures).to.deep.equal([]);
    expect(report).to.deep.include({ accountId: alice.accountId, events: own.length });
    expect(report.balance).to.deep.equal(header.balance);
    expect(report.saved).to.deep.equal({ size: kept.size, relation: 'extended' });
  });

  it('refuses the export to test keys, and a consistency_from beyond its checkpoint', async () => {
    const testKey = await request(app, 'GET', '/v1/audit/credits/export', { key: alice.test });
    checker.check('GET', '/v1/audit/credits/export', testKey);
    expect(testKey.body.type).to.equal('https://errors.finsynth.dev/live-key-required');
    const beyond = await request(app, 'GET', `/v1/audit/credits/export?consistency_from=${10 ** 9}`, {
      key: alice.live,
    });
    checker.check('GET', '/v1/audit/credits/export', beyond);
    expect([beyond.status, beyond.body.type]).to.deep.equal([400, 'https://errors.finsynth.dev/tree-size-exceeded']);
  });
});
