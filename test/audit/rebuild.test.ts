import { expect } from 'chai';
import { projections } from '../../projections/index.js';
import { ProjectionRunner } from '../../projections/runner.js';
import { MemorySnapshotStore } from '../../projections/snapshot-store.js';
import { systemClock } from '../../core/clock.js';
import { openAccount, request, type TestAccount, type TestApp } from '../support/app.js';
import { startBillingInstance } from '../billing/billing-instance.js';

/** Every read model serialized as its projection serializes it for snapshots. */
function readModels(runner: ProjectionRunner): Record<string, string> {
  return Object.fromEntries(projections.map((projection) => [projection.name, JSON.stringify(projection.toJSON(runner.state(projection.name)))]));
}

const config = { version: 1, sector: 'cards', seed: 1, tables: [{ name: 'cards', rows: 100 }] };

describe('rebuilding the read models', () => {
  let app: TestApp;

  /** Saved documents of every state a replay must rebuild: one updated, one deleted, in both modes. */
  async function saveUpdateAndDelete(account: TestAccount, path: string, member: 'config' | 'overlay', [content, changed]: [object, object]) {
    for (const key of [account.live, account.test]) {
      const saved = await Promise.all(['kept', 'dropped'].map((name) => request(app, 'POST', path, { key, body: { name, [member]: content } })));
      const [kept, dropped] = saved.map((response) => {
        expect(response.status, JSON.stringify(response.body)).to.equal(201);
        return response.body.id as string;
      });
      expect((await request(app, 'POST', `${path}/${kept}`, { key, body: { name: 'renamed', [member]: changed } })).status).to.equal(200);
      expect((await request(app, 'DELETE', `${path}/${dropped}`, { key })).status).to.equal(200);
    }
  }

  before(async () => {
    // Rate limits lifted: a free account's 5 requests a second would refuse its saved documents.
    app = await startBillingInstance({ clock: systemClock });
    const accounts = await Promise.all([openAccount(app, { tier: 'developer', credits: 500 }), openAccount(app, { tier: 'free', credits: 40 })]);
    const { credits } = app.services;
    for (const [index, account] of accounts.entries()) {
      const tables = [{ name: 'transactions', rows: 1000, credits: 2 }];
      for (let i = 0; i < 5; i += 1) {
        await credits.debit({ accountId: account.accountId, mode: i % 2 ? 'test' : 'live', keyId: 'key_1', reference: `req_${index}_${i}`, operation: 'quick', sector: 'cards', tables, credits: 2 });
      }
      await credits.refund(account.accountId, `req_${index}_0`, 'generation failed');
      await credits.reserve({ accountId: account.accountId, mode: 'live', keyId: 'key_1', reference: `job_${index}`, sector: 'cards', tables, credits: 10 });
      await credits.settle(account.accountId, `job_${index}`, { tables });
      await request(app, 'POST', '/v1/billing/credits', { key: account.live, body: { pack: 'small', payment_token: index ? 'tok_chargeDeclined' : 'tok_visa' } });
      await request(app, 'POST', '/v1/billing/subscription', { key: account.live, body: { tier: 'team' } });
      await request(app, 'POST', '/v1/keys', { key: account.live, body: { name: 'ci', scopes: ['usage:read'] } });
      await saveUpdateAndDelete(account, '/v1/configs', 'config', [config, { ...config, seed: 2 }]);
      await saveUpdateAndDelete(account, '/v1/overlays', 'overlay', [{ seed: null }, { tables: [{ name: 'cards', rows: 500 }] }]);
    }
    await app.services.projections.waitFor(await app.services.store.headPosition());
  });
  after(() => app.close());

  it('gives byte-identical read models, in place and in a fresh runner', async () => {
    const live = readModels(app.services.projections);
    expect(JSON.parse(live.ledger!)).to.not.deep.equal({});
    expect(JSON.parse(live.usage!)).to.not.deep.equal({});
    expect(JSON.parse(live.billing!)).to.not.deep.equal({});
    for (const documents of [live.configs!, live.overlays!]) {
      const views = Object.values(JSON.parse(documents).documents) as { version: number; deleted_at: string | null }[];
      expect(views).to.have.length(8);
      expect(views.filter((view) => view.version === 2)).to.have.length(4);
      expect(views.filter((view) => view.deleted_at !== null)).to.have.length(4);
    }

    await app.services.projections.rebuild();
    expect(readModels(app.services.projections)).to.deep.equal(live);

    const fresh = new ProjectionRunner(app.services.store, app.services.registry, projections, new MemorySnapshotStore());
    await fresh.waitFor(await app.services.store.headPosition());
    expect(readModels(fresh)).to.deep.equal(live);
  });

  it('and a read model restored from its snapshot serializes to the same bytes', () => {
    for (const projection of projections) {
      const json = projection.toJSON(app.services.projections.state(projection.name));
      const restored = projection.fromJSON(JSON.parse(JSON.stringify(json)));
      expect(JSON.stringify(projection.toJSON(restored)), projection.name).to.equal(JSON.stringify(json));
    }
  });
});
