import { expect } from 'chai';
import { SqliteEventStore } from '../../../core/store/sqlite-store.js';
import { MemoryEventStore } from '../../../core/store/memory-store.js';
import { CreditsService } from '../../../core/accounts/credits-service.js';
import { CommandHandler } from '../../../core/commands/command-handler.js';
import { accountDecider, accountStream } from '../../../core/accounts/account.js';
import { eventDefinitions } from '../../../core/services/event-definitions.js';
import { EventRegistry } from '../../../core/events/registry.js';
import { MemoryUsageRecordTable } from '../../../projections/usage/usage-records-memory.js';
import { SqliteUsageRecordTable } from '../../../projections/usage/usage-records-sqlite.js';
import {
  UsageRecords,
  type UsageChange,
  type UsageRecord,
  type UsageRecordTable,
} from '../../../projections/usage/usage-records.js';
import type { RebuildWriter } from '../../../projections/usage/rebuild-batches.js';
import { TableWriter } from '../../../projections/usage/table-writer.js';
import { workerRebuildWriter } from '../../../projections/usage/worker-rebuild-writer.js';
import { rebuildReadModels } from '../../../projections/rebuild-read-models.js';
import { USAGE_PROJECTION, usageProjection } from '../../../projections/usage/usage.js';
import { usageSummary } from '../../../projections/usage/usage-queries.js';
import { turnsDuring } from '../../support/event-loop-turns.js';
import { openAccount, startTestApp, type TestAccount, type TestApp } from '../../support/app.js';

/** Every record of the account, newest first, page by page as the endpoint reads them. */
async function allRecords(table: UsageRecordTable, accountId: string): Promise<UsageRecord[]> {
  const records: UsageRecord[] = [];
  for (;;) {
    const page = await table.page(accountId, { before: records.at(-1)?.position }, 7);
    records.push(...page);
    if (page.length < 7) return records;
  }
}

describe('the usage records table', () => {
  let app: TestApp;
  let accounts: TestAccount[];
  const operations = 40;
  /** Every record of each of the test's accounts. */
  const everyRecord = (table: UsageRecordTable) =>
    Promise.all(accounts.map((account) => allRecords(table, account.accountId)));

  before(async () => {
    app = await startTestApp();
    accounts = [
      await openAccount(app, { tier: 'developer', credits: 1000 }),
      await openAccount(app, { tier: 'free', credits: 1000 }),
    ];
    const { credits } = app.services;
    const tables = [{ name: 'transactions', rows: 1000, credits: 2 }];
    for (const [index, account] of accounts.entries()) {
      for (let i = 0; i < operations; i += 1) {
        const mode = i % 3 ? 'live' : 'test';
        await credits.debit({
          accountId: account.accountId,
          mode,
          keyId: `key_${index}`,
          reference: `req_${i}`,
          operation: 'quick',
          sector: 'cards',
          tables,
          credits: 2,
        });
      }
      await credits.refund(account.accountId, 'req_1', 'generation failed');
      await credits.reserve({
        accountId: account.accountId,
        mode: 'live',
        keyId: 'key_job',
        reference: 'job_1',
        sector: 'lending',
        tables,
        credits: 10,
      });
      await credits.settle(account.accountId, 'job_1', { tables });
    }
    await app.services.usageRecords.catchUp();
    // Tests below write the table through instances of their own, which the app's catch-up each second would race.
    await app.services.usageRecords.stop();
  });
  after(() => app.close());

  it("lives in the store's sqlite file, not in the usage projection, whose snapshot holds one entry per account", async () => {
    const { services } = app;
    expect(services.usageRecords.table).to.be.instanceOf(SqliteUsageRecordTable);
    const records = await allRecords(services.usageRecords.table, accounts[0]!.accountId);
    expect(records).to.have.length(operations + 1);
    expect(records[0]).to.include({
      reference: 'job_1',
      source: 'settlement',
      key_id: 'key_job',
      sector: 'lending',
      credits: 2,
    });
    expect(records.find((record) => record.reference === 'req_1')).to.include({ refunded: true });
    await services.projections.waitForHead();
    const snapshot = usageProjection.toJSON(services.projections.state(USAGE_PROJECTION));
    // 26 live debits of 2 (one refunded) and a settlement of 2; 14 test debits of 2.
    expect(snapshot).to.deep.equal(
      Object.fromEntries(accounts.map((account) => [account.accountId, { live: 25 * 2 + 2, test: 14 * 2 }])),
    );
  });

  it('rebuilt from the first event, and built in memory from the same events, gives the same records', async () => {
    const { services } = app;
    const before = await Promise.all(
      accounts.map((account) => allRecords(services.usageRecords.table, account.accountId)),
    );
    await services.usageRecords.rebuild();
    expect(
      await Promise.all(accounts.map((account) => allRecords(services.usageRecords.table, account.accountId))),
    ).to.deep.equal(before);
    const memory = new UsageRecords(services.store, services.registry, new MemoryUsageRecordTable(), { batchSize: 16 });
    await memory.catchUp();
    expect(await Promise.all(accounts.map((account) => allRecords(memory.table, account.accountId)))).to.deep.equal(
      before,
    );
    // A rebuild applies many pages of events in one transaction: read in pages of 5, every record is still there once.
    const paged = new UsageRecords(services.store, services.registry, new MemoryUsageRecordTable(), { batchSize: 5 });
    await paged.rebuild();
    expect(await Promise.all(accounts.map((account) => allRecords(paged.table, account.accountId)))).to.deep.equal(
      before,
    );
    expect(await paged.table.checkpoint()).to.equal(await services.store.headPosition());
    // Summed over chunks of 6 rows, the period's records give the totals of the whole list.
    const chunked = new SqliteUsageRecordTable((services.store as SqliteEventStore).db, 6);
    for (const account of accounts) {
      for (const mode of ['live', 'test'] as const) {
        const expected = await usageSummary(memory.table, account.accountId, mode, {});
        expect(await usageSummary(chunked, account.accountId, mode, {})).to.deep.equal(expected);
      }
    }
    expect(await usageSummary(chunked, accounts[0]!.accountId, 'live', {})).to.include({ operations: 26, credits: 52 });
    expect(await usageSummary(chunked, accounts[0]!.accountId, 'test', {})).to.include({ operations: 14, credits: 28 });
  });

  it("rebuilds a sqlite file's records through a worker thread, to the records a rebuild in this thread makes", async () => {
    const { services } = app;
    const store = services.store as SqliteEventStore;
    const before = await everyRecord(services.usageRecords.table);
    const inThisThread = new UsageRecords(store, services.registry, new SqliteUsageRecordTable(store.db));
    const workers: unknown[] = [];
    const started = (worker: unknown) => workers.push(worker);
    process.on('worker', started);
    try {
      await inThisThread.rebuild();
      expect(workers).to.have.length(0);
      await services.usageRecords.table.reset();
      expect(await everyRecord(services.usageRecords.table)).to.deep.equal([[], []]);
      await services.usageRecords.rebuild();
      expect(workers).to.have.length(1);
    } finally {
      process.off('worker', started);
    }
    expect(await everyRecord(services.usageRecords.table)).to.deep.equal(before);
    expect(await services.usageRecords.table.checkpoint()).to.equal(await store.headPosition());
  });

  it("rebuilds alongside the projections from the same read: each page of the runner's rebuild, once", async () => {
    const { services } = app;
    const before = await everyRecord(services.usageRecords.table);
    const usageBefore = usageProjection.toJSON(services.projections.state(USAGE_PROJECTION));
    await services.usageRecords.table.reset();
    const byTime = () =>
      (services.store as SqliteEventStore).db
        .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND name = 'usage_records_by_time'")
        .pluck()
        .get();
    expect(byTime()).to.equal(undefined);
    await rebuildReadModels(services.projections, services.usageRecords);
    // Left out by the reset, made again once the rebuild is done.
    expect(byTime()).to.equal('usage_records_by_time');
    expect(await everyRecord(services.usageRecords.table)).to.deep.equal(before);
    expect(usageProjection.toJSON(services.projections.state(USAGE_PROJECTION))).to.deep.equal(usageBefore);
    expect(await services.usageRecords.table.checkpoint()).to.equal(await services.store.headPosition());
  });

  it('applies a rebuild in batches, each while the next is gathered, on this thread or through the worker', async () => {
    const { services } = app;
    const store = services.store as SqliteEventStore;
    const before = await everyRecord(services.usageRecords.table);
    const applied: number[] = [];
    const counted = (writer: RebuildWriter): RebuildWriter => ({
      reset: () => writer.reset(),
      add: (changes) => writer.add(changes),
      apply: (after, checkpoint) => {
        applied.push(checkpoint);
        return writer.apply(after, checkpoint);
      },
      close: () => writer.close(),
    });
    const table = new SqliteUsageRecordTable(store.db);
    for (const writer of [
      async () => counted(await workerRebuildWriter(store.db.name)),
      async () => counted(new TableWriter(table)),
    ]) {
      applied.length = 0;
      const records = new UsageRecords(store, services.registry, table, {
        batchSize: 4,
        rebuildBatch: 10,
        rebuildWriter: writer,
      });
      await records.rebuild();
      expect(await everyRecord(table)).to.deep.equal(before);
      // Pages of 4 handed over once 10 events are gathered: every 12 events, and what is left at the end.
      const head = await store.headPosition();
      expect(applied).to.have.length(Math.ceil(head / 12));
      expect(applied.slice(0, -1)).to.deep.equal(applied.slice(0, -1).map((_, index) => (index + 1) * 12));
      expect(applied.at(-1)).to.equal(head);
    }
  });

  it('leaves the rest to the catch-up once another instance moved the checkpoint during a rebuild', async () => {
    const { services } = app;
    const store = services.store as SqliteEventStore;
    const before = await everyRecord(services.usageRecords.table);
    const table = new SqliteUsageRecordTable(store.db);
    const another = new UsageRecords(store, services.registry, new SqliteUsageRecordTable(store.db));
    const answers: boolean[] = [];
    const records = new UsageRecords(store, services.registry, table, {
      batchSize: 4,
      rebuildBatch: 10,
      rebuildWriter: async () => {
        const writer = new TableWriter(table);
        return {
          reset: () => writer.reset(),
          add: (changes) => writer.add(changes),
          apply: async (after, checkpoint) => {
            // Another instance catches up from the first batch on, before the second is applied.
            if (answers.length === 1) await another.catchUp();
            answers.push(await writer.apply(after, checkpoint));
            return answers.at(-1)!;
          },
          close: () => writer.close(),
        };
      },
    });
    await records.rebuild();
    expect(answers).to.deep.equal([true, false]);
    expect(await everyRecord(table)).to.deep.equal(before);
    expect(await table.checkpoint()).to.equal(await store.headPosition());
  });

  it("fails each request with the worker's own error once it is gone, never waiting for an answer", async () => {
    const writer = await workerRebuildWriter('/nonexistent/folder/events.db');
    const failure = (promise: Promise<unknown>) =>
      promise.then(
        () => null,
        (error: unknown) => error,
      );
    expect(await failure(writer.reset())).to.be.instanceOf(Error);
    expect(await failure(writer.apply(0, 1)))
      .to.be.instanceOf(Error)
      .with.property('message')
      .that.matches(/Cannot open database because the directory does not exist/);
    await writer.close();
  });

  it("answers a batch the worker's table refuses with its error, and the worker goes on", async () => {
    const store = app.services.store as SqliteEventStore;
    const writer = await workerRebuildWriter(store.db.name);
    try {
      expect(await writer.apply(-1, 1)).to.equal(false);
      const settlement: UsageChange = {
        kind: 'settle',
        accountId: 'acc_none',
        record: {
          id: 'usg_1',
          reference: 'job_none',
          source: 'settlement',
          operation: 'job',
          mode: 'live',
          tables: [],
          rows: 0,
          credits: 0,
          refunded: false,
          recorded_at: '2026-01-01T00:00:00.000Z',
          position: 1,
        },
      };
      const after = await app.services.usageRecords.table.checkpoint();
      writer.add([settlement]);
      const refused = await writer.apply(after, after + 1).then(
        () => null,
        (error: unknown) => error,
      );
      expect(refused)
        .to.be.instanceOf(Error)
        .with.property('message')
        .that.matches(/settlement of unknown reservation job_none on account acc_none/);
      expect(await writer.apply(-1, 1)).to.equal(false);
    } finally {
      await writer.close();
    }
  });

  it('two writers on one database apply each event once', async () => {
    const { services } = app;
    const db = (services.store as SqliteEventStore).db;
    await services.usageRecords.table.reset();
    const writers = [
      new UsageRecords(services.store, services.registry, new SqliteUsageRecordTable(db), { batchSize: 10 }),
      new UsageRecords(services.store, services.registry, new SqliteUsageRecordTable(db), { batchSize: 10 }),
    ];
    await Promise.all(writers.map((writer) => writer.catchUp()));
    const records = await allRecords(services.usageRecords.table, accounts[1]!.accountId);
    expect(records).to.have.length(operations + 1);
    expect(new Set(records.map((record) => record.id)).size).to.equal(operations + 1);
  });
});

describe('the usage records background catch-up', () => {
  /** A memory store holding account acc_1, opened with 10 credits. */
  async function accountWithCredits() {
    const store = new MemoryEventStore();
    const registry = new EventRegistry(eventDefinitions);
    const commands = new CommandHandler(store, registry);
    await commands.handle(accountDecider, accountStream('acc_1'), {
      type: 'OpenAccount',
      accountId: 'acc_1',
      tier: 'free',
      at: '2026-01-01T00:00:00.000Z',
    });
    const credits = new CreditsService(commands);
    await credits.grant({ accountId: 'acc_1', amount: 10, reference: 'g', reason: 'test' });
    return { store, registry, credits };
  }

  it('leaves the event loop a turn between the pages it reads', async () => {
    const { store, registry, credits } = await accountWithCredits();
    for (let i = 0; i < 8; i += 1)
      await credits.debit({
        accountId: 'acc_1',
        mode: 'live',
        keyId: null,
        reference: `req_${i}`,
        operation: 'quick',
        sector: 'cards',
        tables: [],
        credits: 1,
      });
    const records = new UsageRecords(store, registry, new MemoryUsageRecordTable(), { batchSize: 2 });
    const turns = await turnsDuring(() => records.catchUp());
    expect((await records.table.page('acc_1', {}, 10)).length).to.equal(8);
    // Ten events in pages of two: a turn after each of the five full pages.
    expect(turns).to.be.at.least(5);
  });

  it('applies new events without waiting for a read', async () => {
    const { store, registry, credits } = await accountWithCredits();
    const records = new UsageRecords(store, registry, new MemoryUsageRecordTable());
    const errors: unknown[] = [];
    records.start(5, (error) => errors.push(error));
    const { position } = await credits.debit({
      accountId: 'acc_1',
      mode: 'live',
      keyId: null,
      reference: 'req_1',
      operation: 'quick',
      sector: 'cards',
      tables: [],
      credits: 1,
    });
    while ((await records.table.checkpoint()) < position) await new Promise((resolve) => setTimeout(resolve, 5));
    await records.stop();
    expect((await records.table.page('acc_1', {}, 10)).map((record) => record.reference)).to.deep.equal(['req_1']);
    expect(errors).to.deep.equal([]);
  });
});
