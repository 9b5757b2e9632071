import { expect } from 'chai';
import { auditStore } from '../../../core/audit/store-audit.js';
import { accountStream } from '../../../core/accounts/account.js';
import { MemoryEventStore } from '../../../core/store/memory-store.js';

const debited = (reference: string, credits: number) => ({
  type: 'CreditsDebited',
  data: {
    reference,
    mode: 'live',
    key_id: null,
    operation: 'quick',
    sector: 'cards',
    tables: [{ name: 'transactions', rows: 500 * credits, credits }],
    credits,
  },
});

describe("the store audit, on events written behind the decider's back", () => {
  it('names the point where a balance went below zero, and every total that differs from the projections', async () => {
    const store = new MemoryEventStore();
    await store.append(accountStream('acc_1'), [
      { type: 'CreditsGranted', data: { reference: 'g', credits: 5, reason: 'promotion' } },
      debited('r1', 3),
    ]);
    await store.append(accountStream('acc_2'), [
      { type: 'CreditsGranted', data: { reference: 'g', credits: 1, reason: 'promotion' } },
    ]);
    await store.append(accountStream('acc_1'), [
      debited('r2', 4),
      { type: 'CreditsRefunded', data: { reference: 'r2', mode: 'live', credits: 4, reason: 'failed' } },
    ]);
    await store.append('job-1', [{ type: 'JobCreated', data: {} }]);

    const projected = {
      balances: new Map([
        ['acc_1', { credits_available: 2, credits_reserved: 0 }],
        ['acc_2', { credits_available: 1, credits_reserved: 0 }],
      ]),
      usage: new Map([['acc_1', { live: 3, test: 0 }]]),
      billed: new Map([['acc_2', { EUR: 4900 }]]),
    };
    const report = await auditStore(store, projected);
    expect(report).to.include({ holds: false, events: 6, streams: 3, accounts: 2 });
    expect(report.chain_breaks).to.deep.equal([]);
    expect(report.negative_balances).to.deep.equal([{ account_id: 'acc_1', position: 4, credits_available: -2 }]);
    expect(report.differences).to.deep.equal([
      { account_id: 'acc_2', what: 'billing', replayed: {}, projected: { EUR: 4900 } },
    ]);
  });

  it('names a tampered event alone, not the events chained after it', async () => {
    const store = new MemoryEventStore();
    await store.append(accountStream('acc_1'), [
      { type: 'CreditsGranted', data: { reference: 'g', credits: 5, reason: 'promotion' } },
      debited('r1', 3),
      debited('r2', 1),
    ]);
    store.tamper(accountStream('acc_1'), 1, debited('r1', 0).data);
    const report = await auditStore(store, {
      balances: new Map([['acc_1', { credits_available: 1, credits_reserved: 0 }]]),
      usage: new Map([['acc_1', { live: 4, test: 0 }]]),
      billed: new Map(),
    });
    expect(report.chain_breaks).to.deep.equal([
      {
        stream: accountStream('acc_1'),
        revision: 1,
        position: 2,
        reason: 'the hash does not match the event content: the stored event was altered',
      },
    ]);
    expect(report.differences.map((d) => d.what)).to.deep.equal(['balance', 'usage']);
  });
});
