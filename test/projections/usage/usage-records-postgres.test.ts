import { expect } from 'chai';
import { CreditsService } from '../../../core/accounts/credits-service.js';
import { CommandHandler } from '../../../core/commands/command-handler.js';
import { accountDecider, accountStream } from '../../../core/accounts/account.js';
import { eventDefinitions } from '../../../core/services/event-definitions.js';
import { EventRegistry } from '../../../core/events/registry.js';
import { PostgresEventStore } from '../../../core/store/postgres-store.js';
import { MemoryUsageRecordTable } from '../../../projections/usage/usage-records-memory.js';
import { PostgresUsageRecordTable } from '../../../projections/usage/usage-records-postgres.js';
import { usageRecordTableFor } from '../../../projections/usage/usage-records-for-store.js';
import { UsageRecords, type UsageRecord, type UsageRecordTable } from '../../../projections/usage/usage-records.js';
import { usageSummary } from '../../../projections/usage/usage-queries.js';
import { dropPostgresSchema, requirePostgres, uniquePostgresSchema } from '../../support/external-services.js';

const newest = (table: UsageRecordTable): Promise<UsageRecord[]> => table.page('acc_1', {}, 1000);

describe('the usage records table on postgres', () => {
  let url: string;
  let schema: string;
  let store: PostgresEventStore;
  const registry = new EventRegistry(eventDefinitions);

  before(async function () {
    url = await requirePostgres(this);
    schema = uniquePostgresSchema('usage');
    store = await PostgresEventStore.open(url, { schema });
    const commands = new CommandHandler(store, registry);
    await commands.handle(accountDecider, accountStream('acc_1'), {
      type: 'OpenAccount',
      accountId: 'acc_1',
      tier: 'free',
      at: '2026-01-01T00:00:00.000Z',
    });
    const credits = new CreditsService(commands);
    await credits.grant({ accountId: 'acc_1', amount: 1000, reference: 'g', reason: 'test' });
    const tables = [{ name: 'transactions', rows: 1000, credits: 2 }];
    for (let i = 0; i < 25; i += 1) {
      await credits.debit({
        accountId: 'acc_1',
        mode: i % 4 ? 'live' : 'test',
        keyId: 'key_1',
        reference: `req_${i}`,
        operation: 'quick',
        sector: 'cards',
        tables,
        credits: 2,
      });
    }
    await credits.refund('acc_1', 'req_1', 'failed');
    await credits.reserve({
      accountId: 'acc_1',
      mode: 'live',
      keyId: 'key_2',
      reference: 'job_1',
      sector: 'lending',
      tables,
      credits: 5,
    });
    await credits.settle('acc_1', 'job_1', { tables });
  });
  after(async () => {
    if (!store) return;
    await store.close();
    await dropPostgresSchema(url, schema);
  });

  it('holds the same records as memory, once each with two writers, and again after a rebuild', async () => {
    expect(usageRecordTableFor(store)).to.be.instanceOf(PostgresUsageRecordTable);
    const memory = new UsageRecords(store, registry, new MemoryUsageRecordTable());
    await memory.catchUp();
    const expected = await newest(memory.table);
    expect(expected).to.have.length(26);

    const writers = [0, 1].map(
      () =>
        new UsageRecords(store, registry, new PostgresUsageRecordTable(store.pool, store.schema, 4), { batchSize: 7 }),
    );
    await Promise.all(writers.map((writer) => writer.catchUp()));
    expect(await newest(writers[0]!.table)).to.deep.equal(expected);
    expect(await writers[0]!.table.page('acc_1', { mode: 'test', before: expected[5]!.position }, 3)).to.deep.equal(
      expected.filter((r) => r.mode === 'test' && r.position < expected[5]!.position).slice(0, 3),
    );
    for (const mode of ['live', 'test'] as const) {
      const expected = await usageSummary(memory.table, 'acc_1', mode, {});
      expect(await usageSummary(writers[0]!.table, 'acc_1', mode, {})).to.deep.equal(expected);
    }
    expect(await usageSummary(writers[0]!.table, 'acc_1', 'test', {})).to.include({ operations: 7 });

    await writers[1]!.rebuild();
    expect(await newest(writers[0]!.table)).to.deep.equal(expected);
  });
});
