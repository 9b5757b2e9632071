import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import { pino } from 'pino';
import { projections } from '../../projections/index.js';
import type { UsageRecord } from '../../projections/usage/usage-records.js';
import { REBUILD_FROM_EVENTS } from '../../projections/rebuild-read-models.js';
import type { Services } from '../../core/services/services.js';
import { openAccount, startTestApp, type TestAccount } from '../support/app.js';

const REBUILT = 'read models rebuilt from the first event';

/** A logger at info whose messages the test reads back. */
function recordingLogger() {
  const lines: { msg: string; events?: number }[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as { msg: string; events?: number });
      done();
    },
  });
  return { logger: pino({ level: 'info' }, sink), lines };
}

/** Every read model of the services: each projection's state as it would be saved, and each account's records. */
async function readModels(services: Services, accounts: TestAccount[]) {
  await services.projections.waitForHead();
  await services.usageRecords.catchUp();
  const states = Object.fromEntries(
    projections.map((projection) => [projection.name, projection.toJSON(services.projections.state(projection.name))]),
  );
  const records: UsageRecord[][] = [];
  for (const { accountId } of accounts) records.push(await services.usageRecords.table.page(accountId, {}, 1000));
  return { head: await services.store.headPosition(), states, records };
}

/** The events alone, as a backup of them would restore: the snapshots and the usage records' tables dropped. */
function dropReadModels(dataDir: string): void {
  const db = new Database(join(dataDir, 'events.db'));
  try {
    for (const table of ['projection_snapshots', 'usage_records', 'usage_reservations', 'usage_records_checkpoint'])
      db.exec(`DROP TABLE ${table}`);
  } finally {
    db.close();
  }
}

// The later starts do no background work (renewals, jobs): they append nothing, so their read models are of the
// same events as the first start's.
describe('read models missing at start', function () {
  this.timeout(60_000);
  let dataDir: string;
  let accounts: TestAccount[];
  let history: Awaited<ReturnType<typeof readModels>>;

  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'finsynth-test-rebuild-'));
    const app = await startTestApp({ dataDir });
    try {
      accounts = [
        await openAccount(app, { tier: 'developer', credits: 1000 }),
        await openAccount(app, { tier: 'free', credits: 500 }),
      ];
      const { credits, jobs } = app.services;
      const tables = [{ name: 'transactions', rows: 1000, credits: 2 }];
      for (const [index, { accountId }] of accounts.entries()) {
        for (let i = 0; i < 12; i += 1) {
          const mode = i % 3 ? 'live' : 'test';
          const debit = { accountId, mode, keyId: `key_${index}`, reference: `req_${i}`, operation: 'quick' } as const;
          await credits.debit({ ...debit, sector: 'cards', tables, credits: 2 });
        }
        await credits.refund(accountId, 'req_1', 'generation failed');
      }
      // A job's events, for the jobs projection and the reservation's records.
      const config = { version: 1, sector: 'cards', seed: 7, tables: [{ name: 'transactions', rows: 200 }] };
      const owner = { accountId: accounts[0].accountId, mode: 'live' as const };
      const job = await jobs.create({ ...owner, keyId: 'key_job', input: { config } });
      for (let state = job.state; state !== 'succeeded'; state = jobs.get(owner, job.id).state) {
        expect(state).to.be.oneOf(['queued', 'running']);
        await new Promise((resolve) => setTimeout(resolve, 50));
        await app.services.projections.waitForHead();
      }
      history = await readModels(app.services, accounts);
    } finally {
      await app.close();
    }
  });

  after(() => rm(dataDir, { recursive: true, force: true }));

  it('are rebuilt in one read when every one is missing, the same as the ones the events made', async () => {
    dropReadModels(dataDir);
    const { logger, lines } = recordingLogger();
    const app = await startTestApp({ dataDir, services: { logger, rebuildFromEvents: 1, background: false } });
    try {
      expect(lines.filter((line) => line.msg === REBUILT).map((line) => line.events)).to.deep.equal([history.head]);
      expect(await readModels(app.services, accounts)).to.deep.equal(history);
    } finally {
      await app.close();
    }
  });

  it('are caught up as usual when some are kept, or when the store holds fewer events than a rebuild is for', async () => {
    // The snapshots and records the test before saved are there: nothing to rebuild.
    const kept = recordingLogger();
    let app = await startTestApp({
      dataDir,
      services: { logger: kept.logger, rebuildFromEvents: 1, background: false },
    });
    try {
      expect(kept.lines.map((line) => line.msg)).not.to.include(REBUILT);
      expect(await readModels(app.services, accounts)).to.deep.equal(history);
    } finally {
      await app.close();
    }
    expect(history.head).to.be.below(REBUILD_FROM_EVENTS);
    dropReadModels(dataDir);
    const few = recordingLogger();
    app = await startTestApp({ dataDir, services: { logger: few.logger, background: false } });
    try {
      expect(few.lines.map((line) => line.msg)).not.to.include(REBUILT);
      expect(await readModels(app.services, accounts)).to.deep.equal(history);
    } finally {
      await app.close();
    }
  });
});
