import { expect } from 'chai';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../../core/settings/settings.js';
import { accountStream } from '../../../core/accounts/account.js';
import { openEventStore } from '../../../core/store/open-store.js';
import { request, type TestAccount } from '../../support/app.js';
import { DIED, startChildApp, type ChildApp } from './support/dying-child.js';

/** 1,000 rows of the failing pack: 5 credits, charged, then the generator throws. */
const failing = { sector: 'failing', tables: [{ name: 'entries', rows: 1000 }] };

/**
 * The process dies after the generation failed and before its refund reached the store: the debit is
 * taken, the client has no answer. The refund was written to the data folder first; the next start
 * appends it.
 */
describe('a quick generation whose process dies between its failure and its refund', function () {
  this.timeout(120_000);
  const children: ChildApp[] = [];
  let dataDir: string;

  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'finsynth-crash-refund-'));
  });
  after(async () => {
    await Promise.all(children.map((child) => child.stop()));
    await rm(dataDir, { recursive: true, force: true });
  });

  const owedFiles = async () => (await readdir(join(dataDir, 'refunds-owed'))).filter((name) => name.endsWith('.json'));

  it('is refunded exactly once by the restarted service, and the audit holds', async () => {
    const dying = await startChildApp(dataDir, { diesAt: 'refund', openAccount: 20 });
    children.push(dying);
    const account = dying.account!;
    const sent = request(dying, 'POST', '/v1/generate/quick', { key: account.live, body: failing });
    expect(
      await sent.then(
        () => 'answered',
        () => 'no answer',
      ),
    ).to.equal('no answer');
    expect(await dying.exited).to.equal(DIED);

    // What the crash left: the debit, no refund in the store, the refund owed on disk.
    expect(await creditTypes(account)).to.deep.equal(['CreditsGranted', 'CreditsDebited']);
    expect(await owedFiles()).to.have.length(1);

    const restarted = await startChildApp(dataDir);
    children.push(restarted);
    await untilOwedNothing(owedFiles);
    const balance = await request(restarted, 'GET', '/v1/billing/credits', { key: account.live });
    expect(balance.body).to.include({ credits_available: 20, credits_reserved: 0 });
    const audit = await request(restarted, 'GET', '/v1/audit/credits', { key: account.live });
    expect(audit.body.verdict, JSON.stringify(audit.body.verdict)).to.include({ holds: true });
    type Movement = { type: string; change: { credits_available: number } };
    const movements = audit.body.data.map((movement: Movement) => [movement.type, movement.change.credits_available]);
    expect(movements).to.deep.equal([
      ['CreditsGranted', 20],
      ['CreditsDebited', -5],
      ['CreditsRefunded', 5],
    ]);
    await restarted.stop();
    expect(await creditTypes(account)).to.deep.equal(['CreditsGranted', 'CreditsDebited', 'CreditsRefunded']);
  });

  /** The account's credit events, read from the store while no service runs on it. */
  async function creditTypes(account: TestAccount): Promise<string[]> {
    const store = await openEventStore(loadConfig({}, { dataDir }));
    try {
      const events = await store.readStream(accountStream(account.accountId));
      return events.map((event) => event.type).filter((type) => type.startsWith('Credits'));
    } finally {
      await store.close();
    }
  }
});

/** Waits for the outbox to be empty: a file is removed only once the store holds its refund. Bounded generously. */
async function untilOwedNothing(owed: () => Promise<string[]>, boundMs = 30_000): Promise<void> {
  const deadline = Date.now() + boundMs;
  while ((await owed()).length > 0) {
    if (Date.now() > deadline) throw new Error(`refunds still owed after ${boundMs} ms: ${(await owed()).join(', ')}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
