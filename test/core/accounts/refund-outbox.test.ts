import { expect } from 'chai';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CreditsService } from '../../../core/accounts/credits-service.js';
import { RefundOutbox } from '../../../core/accounts/refund-outbox.js';
import { accountStream } from '../../../core/accounts/account.js';
import { CommandHandler } from '../../../core/commands/command-handler.js';
import { eventDefinitions } from '../../../core/services/event-definitions.js';
import { EventRegistry } from '../../../core/events/registry.js';
import type { NewEvent } from '../../../core/events/envelope.js';
import type { AppendResult, ExpectedRevision } from '../../../core/store/event-store.js';
import { MemoryEventStore } from '../../../core/store/memory-store.js';
import { openAccount, request, startTestApp, type TestApp } from '../../support/app.js';

const failingPack = fileURLToPath(new URL('../../support/packs/failing-pack/', import.meta.url));

/** A store that refuses the appends `refusing` picks, as one that is unreachable would; reads still answer. */
class OutageStore extends MemoryEventStore {
  refusing: ((events: readonly NewEvent[]) => boolean) | null = null;

  override async append(
    stream: string,
    events: readonly NewEvent[],
    options?: { expectedRevision?: ExpectedRevision },
  ): Promise<AppendResult> {
    if (this.refusing?.(events)) throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
    return super.append(stream, events, options);
  }
}

const refunds = (events: readonly NewEvent[]) => events.some((event) => event.type === 'CreditsRefunded');

/** Polls `condition` until it holds; bounded generously: this proves the outcome, not its speed. */
async function until(condition: () => Promise<boolean>, what: string, boundMs = 30_000): Promise<void> {
  const deadline = Date.now() + boundMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`${what}: not reached within ${boundMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const owedIn = async (directory: string) =>
  (await readdir(directory).catch(() => [])).filter((name) => name.endsWith('.json'));

describe('a quick generation whose refund the store refuses, over HTTP', () => {
  const store = new OutageStore();
  let app: TestApp;
  before(async () => {
    app = await startTestApp({ config: { packs: [failingPack] }, services: { store } });
  });
  after(() => app.close());

  it('answers the generation problem, keeps the refund, appends it once the store takes appends again', async () => {
    const account = await openAccount(app, { credits: 20 });
    const balance = async () =>
      (await request(app, 'GET', '/v1/billing/credits', { key: account.live })).body.credits_available as number;
    const owed = () => owedIn(join(app.config.dataDir, 'refunds-owed'));
    store.refusing = refunds;

    const body = { sector: 'failing', tables: [{ name: 'entries', rows: 1000 }] };
    const response = await request(app, 'POST', '/v1/generate/quick', { key: account.live, body });
    expect(response.status).to.equal(500);
    expect(response.body.type).to.match(/\/generation-failed$/);
    expect(await balance()).to.equal(15);
    expect(await owed()).to.have.length(1);
    // Offered again while the store still refuses it (each try reported): still owed, still one.
    await until(async () => refusalsReported(await request(app, 'GET', '/metrics')) >= 2, 'a second refusal');
    expect(await owed()).to.have.length(1);

    store.refusing = null;
    await until(async () => (await owed()).length === 0, 'the refund appended');
    expect(await balance()).to.equal(20);
    const types = (await store.readStream(accountStream(account.accountId))).map((event) => event.type);
    expect(types.filter((type) => type === 'CreditsRefunded')).to.have.length(1);
    const audit = await request(app, 'GET', '/v1/audit/credits', { key: account.live });
    expect(audit.body.verdict, JSON.stringify(audit.body.verdict)).to.include({ holds: true });
  });
});

/** finsynth_unexpected_errors_total{source="refund-outbox"} in a /metrics answer. */
function refusalsReported(metrics: { text: string }): number {
  const name = 'finsynth_unexpected_errors_total{source="refund-outbox"}';
  const line = metrics.text.split('\n').find((candidate) => candidate.startsWith(name));
  return line ? Number(line.split(' ').at(-1)) : 0;
}

describe('RefundOutbox', () => {
  let directory: string;
  let store: OutageStore;
  let credits: CreditsService;
  const reported: unknown[] = [];
  const outbox = () => new RefundOutbox({ directory, credits, onError: (error) => reported.push(error) });

  beforeEach(async () => {
    directory = await mkdtemp(join(tmpdir(), 'finsynth-refunds-'));
    store = new OutageStore();
    credits = new CreditsService(new CommandHandler(store, new EventRegistry(eventDefinitions)));
    reported.length = 0;
    const at = '2026-01-01T00:00:00.000Z';
    await credits.run('acc_1', { type: 'OpenAccount', accountId: 'acc_1', tier: 'free', at });
    await credits.grant({ accountId: 'acc_1', amount: 20, reference: 'grant_1', reason: 'test' });
    const debit = { accountId: 'acc_1', mode: 'live' as const, keyId: null, operation: 'quick', sector: 'cards' };
    await credits.debit({ ...debit, tables: [], credits: 5, reference: 'req_1' });
    await credits.debit({ ...debit, tables: [], credits: 5, reference: 'req_2' });
  });
  afterEach(() => rm(directory, { recursive: true, force: true }));

  const refunded = async () =>
    (await store.readStream(accountStream('acc_1')))
      .filter((event) => event.type === 'CreditsRefunded')
      .map((event) => (event.data as { reference: string }).reference);

  it('refunds at once when the store takes it, and keeps nothing', async () => {
    expect(await outbox().refund({ accountId: 'acc_1', reference: 'req_1', reason: 'failed' })).to.equal('refunded');
    expect(await refunded()).to.deep.equal(['req_1']);
    expect(await owedIn(directory)).to.deep.equal([]);
  });

  it('two instances on one data folder drain the same refund: appended once', async () => {
    store.refusing = refunds;
    expect(await outbox().refund({ accountId: 'acc_1', reference: 'req_1', reason: 'failed' })).to.equal('kept');
    expect(await outbox().refund({ accountId: 'acc_1', reference: 'req_2', reason: 'failed' })).to.equal('kept');
    // The store is still down: a drain stops at the first refusal and keeps both.
    expect(await outbox().drain()).to.equal(0);
    expect(await owedIn(directory)).to.have.length(2);

    store.refusing = null;
    await Promise.all([outbox().drain(), outbox().drain()]);
    expect((await refunded()).sort()).to.deep.equal(['req_1', 'req_2']);
    expect(await credits.balance('acc_1')).to.deep.equal({ credits_available: 20, credits_reserved: 0 });
    expect(await owedIn(directory)).to.deep.equal([]);
  });

  it('a refund the account refuses for good is dropped and reported; a file that holds none is set aside', async () => {
    // As a drain finds them: one naming a debit the account does not have, one half written by something else.
    const unknown = { accountId: 'acc_1', reference: 'req_unknown', reason: 'failed' };
    await writeFile(join(directory, 'owed.json'), JSON.stringify(unknown));
    await writeFile(join(directory, 'stray.json'), '{"half":');
    expect(await outbox().drain()).to.equal(0);
    expect(await owedIn(directory)).to.deep.equal([]);
    expect((await readdir(directory)).sort()).to.deep.equal(['stray.json.unreadable']);
    expect(reported.map((error) => (error as Error).message)).to.include('no debit with reference "req_unknown"');
    expect(reported.some((error) => (error as Error).message.includes('holds no refund'))).to.equal(true);
  });
});
