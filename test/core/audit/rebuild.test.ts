import { expect } from 'chai';
import { fileURLToPath } from 'node:url';
import { projections } from '../../../projections/index.js';
import type { JobsState } from '../../../projections/jobs/jobs.js';
import { ProjectionRunner } from '../../../projections/runner/projection-runner.js';
import { MemorySnapshotStore } from '../../../projections/runner/snapshot-store.js';
import { systemClock } from '../../../core/clock.js';
import { openAccount, request, startTestApp, type TestAccount, type TestApp } from '../../support/app.js';
import { pricingWithoutRateLimits } from '../../support/pricing.js';
import { pollJob } from '../jobs/support/http.js';

/** Every read model serialized as its projection serializes it for snapshots. */
function readModels(runner: ProjectionRunner): Record<string, string> {
  return Object.fromEntries(
    projections.map((projection) => [
      projection.name,
      JSON.stringify(projection.toJSON(runner.state(projection.name))),
    ]),
  );
}

const config = { version: 1, sector: 'cards', seed: 1, tables: [{ name: 'cards', rows: 100 }] };
/** A pack whose generator throws: the jobs that fail. */
const packs = [fileURLToPath(new URL('../../support/packs/failing-pack/', import.meta.url))];
const jobConfig = (sector: string, table: string, rows: number) => ({
  version: 1,
  sector,
  seed: 1,
  tables: [{ name: table, rows }],
  output: { format: 'csv' },
});

describe('rebuilding the read models', () => {
  let app: TestApp;

  /** Saved documents of every state a replay must rebuild: one updated, one deleted, in both modes. */
  async function saveUpdateAndDelete(
    account: TestAccount,
    path: string,
    member: 'config' | 'overlay',
    [content, changed]: [object, object],
  ) {
    for (const key of [account.live, account.test]) {
      const saved = await Promise.all(
        ['kept', 'dropped'].map((name) => request(app, 'POST', path, { key, body: { name, [member]: content } })),
      );
      const [kept, dropped] = saved.map((response) => {
        expect(response.status, JSON.stringify(response.body)).to.equal(201);
        return response.body.id as string;
      });
      expect(
        (await request(app, 'POST', `${path}/${kept}`, { key, body: { name: 'renamed', [member]: changed } })).status,
      ).to.equal(200);
      expect((await request(app, 'DELETE', `${path}/${dropped}`, { key })).status).to.equal(200);
    }
  }

  /**
   * A job of every end state a replay must rebuild, in both modes: one that succeeds, one whose generator
   * throws, and one cancelled as soon as it is created (2,000,000 rows: still queued or running then).
   */
  async function runJobs(account: TestAccount) {
    for (const key of [account.live, account.test]) {
      const create = async (sector: string, table: string, rows: number): Promise<string> => {
        const created = await request(app, 'POST', '/v1/jobs', {
          key,
          body: { config: jobConfig(sector, table, rows) },
        });
        expect(created.status, created.text).to.equal(202);
        return created.body.id;
      };
      const cancelled = await create('cards', 'transactions', 2_000_000);
      expect([200, 202]).to.include((await request(app, 'POST', `/v1/jobs/${cancelled}/cancel`, { key })).status);
      const ends = {
        [cancelled]: 'cancelled',
        [await create('cards', 'merchants', 50)]: 'succeeded',
        [await create('failing', 'entries', 100)]: 'failed',
      };
      for (const [id, state] of Object.entries(ends))
        expect((await pollJob(app, key, id, ['succeeded', 'failed', 'cancelled'])).body.state).to.equal(state);
    }
    // The runners settle or release a job's credits after its last event: the read models are compared once they have.
    for (
      const deadline = Date.now() + 30_000;
      (await app.services.credits.balance(account.accountId)).credits_reserved > 0;
    ) {
      if (Date.now() > deadline) throw new Error("the jobs' credits are still reserved");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  before(async () => {
    // Rate limits lifted, as in the billing tests: a free account's 5 requests a second would refuse its
    // saved documents.
    app = await startTestApp({
      clock: systemClock,
      config: { poolSize: 1, packs },
      services: { pricing: pricingWithoutRateLimits() },
    });
    // The developer account's credits cover the reservation of the job it cancels (4,000).
    const accounts = await Promise.all([
      openAccount(app, { tier: 'developer', credits: 5000 }),
      openAccount(app, { tier: 'free', credits: 40 }),
    ]);
    const { credits } = app.services;
    for (const [index, account] of accounts.entries()) {
      const tables = [{ name: 'transactions', rows: 1000, credits: 2 }];
      for (let i = 0; i < 5; i += 1) {
        await credits.debit({
          accountId: account.accountId,
          mode: i % 2 ? 'test' : 'live',
          keyId: 'key_1',
          reference: `req_${index}_${i}`,
          operation: 'quick',
          sector: 'cards',
          tables,
          credits: 2,
        });
      }
      await credits.refund(account.accountId, `req_${index}_0`, 'generation failed');
      await credits.reserve({
        accountId: account.accountId,
        mode: 'live',
        keyId: 'key_1',
        reference: `job_${index}`,
        sector: 'cards',
        tables,
        credits: 10,
      });
      await credits.settle(account.accountId, `job_${index}`, { tables });
      await request(app, 'POST', '/v1/billing/credits', {
        key: account.live,
        body: { pack: 'small', payment_token: index ? 'tok_chargeDeclined' : 'tok_visa' },
      });
      await request(app, 'POST', '/v1/billing/subscription', { key: account.live, body: { tier: 'team' } });
      await request(app, 'POST', '/v1/keys', { key: account.live, body: { name: 'ci', scopes: ['usage:read'] } });
      await saveUpdateAndDelete(account, '/v1/configs', 'config', [config, { ...config, seed: 2 }]);
      await saveUpdateAndDelete(account, '/v1/overlays', 'overlay', [
        { seed: null },
        { tables: [{ name: 'cards', rows: 500 }] },
      ]);
    }
    await runJobs(accounts[0]!);
    await app.services.projections.waitFor(await app.services.store.headPosition());
  });
  after(() => app.close());

  it('gives byte-identical read models, in place and in a fresh runner', async () => {
    const live = readModels(app.services.projections);
    expect(JSON.parse(live.ledger!)).to.not.deep.equal({});
    expect(JSON.parse(live.usage!)).to.not.deep.equal({});
    expect(JSON.parse(live.billing!)).to.not.deep.equal({});
    const jobs = Object.values((JSON.parse(live.jobs!) as JobsState).jobs);
    for (const mode of ['live', 'test']) {
      const states = jobs.filter((job) => job.mode === mode).map((job) => job.state);
      expect(states, mode).to.have.members(['succeeded', 'failed', 'cancelled']);
    }
    for (const documents of [live.configs!, live.overlays!]) {
      const views = Object.values(JSON.parse(documents).documents) as { version: number; deleted_at: string | null }[];
      expect(views).to.have.length(8);
      expect(views.filter((view) => view.version === 2)).to.have.length(4);
      expect(views.filter((view) => view.deleted_at !== null)).to.have.length(4);
    }

    await app.services.projections.rebuild();
    expect(readModels(app.services.projections)).to.deep.equal(live);

    const fresh = new ProjectionRunner(
      app.services.store,
      app.services.registry,
      projections,
      new MemorySnapshotStore(),
    );
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
