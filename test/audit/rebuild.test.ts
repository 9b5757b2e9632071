import { expect } from 'chai';
import { projections } from '../../projections/index.js';
import { ProjectionRunner } from '../../projections/runner.js';
import { MemorySnapshotStore } from '../../projections/snapshot-store.js';
import { openAccount, request, startTestApp, type TestApp } from '../support/app.js';

/** Every read model serialized as its projection serializes it for snapshots. */
function readModels(runner: ProjectionRunner): Record<string, string> {
  return Object.fromEntries(projections.map((projection) => [projection.name, JSON.stringify(projection.toJSON(runner.state(projection.name)))]));
}

describe('rebuilding the read models', () => {
  let app: TestApp;

  before(async () => {
    app = await startTestApp();
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
    }
    await app.services.projections.waitFor(await app.services.store.headPosition());
  });
  after(() => app.close());

  it('gives byte-identical read models, in place and in a fresh runner', async () => {
    const live = readModels(app.services.projections);
    expect(JSON.parse(live.ledger!)).to.not.deep.equal({});
    expect(JSON.parse(live.usage!)).to.not.deep.equal({});
    expect(JSON.parse(live.billing!)).to.not.deep.equal({});

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
