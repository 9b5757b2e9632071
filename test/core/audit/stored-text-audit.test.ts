import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { auditStore } from '../../../core/audit/store-audit.js';
import { accountStream } from '../../../core/accounts/account.js';
import { SqliteEventStore } from '../../../core/store/sqlite-store.js';

const stream = accountStream('acc_1');
const projected = {
  balances: new Map([['acc_1', { credits_available: 6, credits_reserved: 0 }]]),
  usage: new Map([['acc_1', { live: 4, test: 0 }]]),
  billed: new Map(),
};

describe("the store audit over the sqlite store's stored text", () => {
  let dir: string;
  let store: SqliteEventStore;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'finsynth-stored-audit-'));
    store = new SqliteEventStore(join(dir, 'events.db'));
    await store.append(stream, [
      { type: 'CreditsGranted', data: { reference: 'g', credits: 10, reason: 'promotion' } },
      {
        type: 'CreditsDebited',
        data: {
          reference: 'r1',
          mode: 'live',
          key_id: 'key_1',
          operation: 'quick',
          sector: 'cards',
          tables: [],
          credits: 4,
        },
        metadata: { request_id: 'req_1', mode: 'live' },
      },
    ]);
  });

  afterEach(async () => {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  const rewrite = (revision: number, column: 'data' | 'metadata', text: string) =>
    store.db.prepare(`UPDATE events SET ${column} = ? WHERE stream = ? AND revision = ?`).run(text, stream, revision);

  it('holds over text stored canonically, as the store writes it', async () => {
    expect((await auditStore(store, projected)).holds).to.equal(true);
  });

  it('holds over the same content stored in another spelling (members reordered, spaces), as older stores wrote it', async () => {
    rewrite(
      1,
      'data',
      '{ "tables": [], "sector": "cards", "reference": "r1", "operation": "quick", ' +
        '"mode": "live", "key_id": "key_1", "credits": 4 }',
    );
    rewrite(1, 'metadata', '{"mode":"live","request_id":"req_1"}');
    const report = await auditStore(store, projected);
    expect(report.chain_breaks).to.deep.equal([]);
    expect(report.holds).to.equal(true);
  });

  it('holds over names that canonical JSON escapes (a quote, a backslash, a control character), and names such an event altered', async () => {
    const names = ['odd"stream', 'odd\\stream', 'odd\u0001stream'];
    for (const name of names)
      await store.append(name, [
        { type: 'Noted\u0002', data: { n: 1 } },
        { type: 'Noted', data: { n: 2 } },
      ]);
    expect((await auditStore(store, projected)).holds).to.equal(true);

    store.db.prepare('UPDATE events SET data = ? WHERE stream = ? AND revision = 0').run('{"n":3}', names[2]);
    const report = await auditStore(store, projected);
    expect(report.chain_breaks.map((b) => [b.stream, b.revision])).to.deep.equal([[names[2], 0]]);
  });

  it('names an event whose stored text was changed, or is no longer JSON, and the totals it falsifies', async () => {
    rewrite(
      1,
      'data',
      '{"credits":1,"key_id":"key_1","mode":"live","operation":"quick","reference":"r1","sector":"cards","tables":[]}',
    );
    rewrite(0, 'metadata', '{"request_id":');
    const report = await auditStore(store, projected).catch((error: unknown) => error);
    expect(report).to.not.be.instanceOf(Error);
    const { chain_breaks, differences } = report as Awaited<ReturnType<typeof auditStore>>;
    expect(chain_breaks.map((b) => [b.revision, b.reason])).to.deep.equal([
      [0, 'the hash does not match the event content: the stored event was altered'],
      [1, 'the hash does not match the event content: the stored event was altered'],
    ]);
    expect(differences.map((d) => d.what)).to.deep.equal(['balance', 'usage']);
  });
});
