import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreditsService } from '../../../core/accounts/credits-service.js';
import { auditStore, type StoreAuditReport } from '../../../core/audit/store-audit.js';
import { CommandHandler } from '../../../core/commands/command-handler.js';
import { accountDecider, accountStream } from '../../../core/accounts/account.js';
import { eventDefinitions } from '../../../core/services/event-definitions.js';
import { EventRegistry } from '../../../core/events/registry.js';
import type { EventStore } from '../../../core/store/event-store.js';
import { MemoryEventStore } from '../../../core/store/memory-store.js';
import { PostgresEventStore } from '../../../core/store/postgres-store.js';
import { SqliteEventStore } from '../../../core/store/sqlite-store.js';
import { projections } from '../../../projections/index.js';
import { projectedTotals } from '../../../projections/ledger/ledger-totals.js';
import { ProjectionRunner } from '../../../projections/runner/projection-runner.js';
import { MemorySnapshotStore } from '../../../projections/runner/snapshot-store.js';
import { usageRecordTableFor } from '../../../projections/usage/usage-records-for-store.js';
import { UsageRecords } from '../../../projections/usage/usage-records.js';
import { dropPostgresSchema, requirePostgres, uniquePostgresSchema } from '../../support/external-services.js';

const registry = new EventRegistry(eventDefinitions);
const tables = [{ name: 'transactions', rows: 1000, credits: 2 }];

/** Debits in both modes, a refund, a settled job and a released one, for acc_1; one debit for acc_2. */
async function writeHistory(credits: CreditsService, round: number): Promise<void> {
  for (let i = 0; i < 4; i += 1) {
    await credits.debit({
      accountId: 'acc_1',
      mode: i % 2 ? 'test' : 'live',
      keyId: 'key_1',
      reference: `req_${round}_${i}`,
      operation: 'quick',
      sector: 'cards',
      tables,
      credits: 2 + i,
    });
  }
  await credits.refund('acc_1', `req_${round}_0`, 'failed');
  for (const job of ['settled', 'released'])
    await credits.reserve({
      accountId: 'acc_1',
      mode: 'live',
      keyId: 'key_2',
      reference: `job_${round}_${job}`,
      sector: 'cards',
      tables,
      credits: 5,
    });
  await credits.settle('acc_1', `job_${round}_settled`, { tables });
  await credits.release('acc_1', `job_${round}_released`, 'cancelled');
  await credits.debit({
    accountId: 'acc_2',
    mode: 'live',
    keyId: 'key_3',
    reference: `req_${round}`,
    operation: 'quick',
    sector: 'cards',
    tables,
    credits: 1,
  });
}

interface Subject<S extends EventStore> {
  store: S;
  close(): Promise<void>;
}

/** `corrupt` runs a statement on the records table in the store's database (`{table}` names it): none for memory. */
function describeAudit<S extends EventStore>(
  name: string,
  open: (context: Mocha.Context) => Promise<Subject<S>>,
  corrupt?: (store: S, statement: string) => Promise<void>,
) {
  describe(`the audit of the usage records table (${name})`, () => {
    let subject: Subject<S>;
    let records: UsageRecords;
    let credits: CreditsService;

    /** Read models caught up with the store's head, and held there. */
    async function projectionsNow(): Promise<ProjectionRunner> {
      const runner = new ProjectionRunner(subject.store, registry, projections, new MemorySnapshotStore());
      await runner.waitForHead();
      await runner.stop();
      return runner;
    }

    /** The audit up to where the read models stand (the head by default), with the records table as it stands. */
    async function audit(runner?: ProjectionRunner): Promise<StoreAuditReport> {
      const held = runner ?? (await projectionsNow());
      const projected = { ...projectedTotals(held), records: await records.table.totals() };
      return auditStore(subject.store, projected, {
        until: Math.min(...held.status().map(({ checkpoint }) => checkpoint)),
      });
    }

    before(async function () {
      subject = await open(this);
      const commands = new CommandHandler(subject.store, registry);
      for (const accountId of ['acc_1', 'acc_2']) {
        await commands.handle(accountDecider, accountStream(accountId), {
          type: 'OpenAccount',
          accountId,
          tier: 'free',
          at: '2026-01-01T00:00:00.000Z',
        });
      }
      credits = new CreditsService(commands);
      for (const accountId of ['acc_1', 'acc_2'])
        await credits.grant({ accountId, amount: 1000, reference: 'g', reason: 'test' });
      await writeHistory(credits, 1);
      records = new UsageRecords(subject.store, registry, usageRecordTableFor(subject.store));
      await records.catchUp();
    });
    after(() => subject?.close());

    it("holds when the table agrees with the events, and compares each account's records per mode", async () => {
      expect(await records.table.totals('acc_1')).to.deep.equal({
        checkpoint: await subject.store.headPosition(),
        accounts: new Map([
          [
            'acc_1',
            {
              live: { records: 3, credits: 2 + 4 + 2, refunded_records: 1, refunded_credits: 2 },
              test: { records: 2, credits: 3 + 5, refunded_records: 0, refunded_credits: 0 },
            },
          ],
        ]),
      });
      const report = await audit();
      expect(report.differences).to.deep.equal([]);
      expect(report).to.include({ holds: true, usage_records_until: await subject.store.headPosition() });
    });

    it('holds with the table behind the audited position (events it has not applied yet) or ahead of it (written during the audit)', async () => {
      const applied = await records.table.checkpoint();
      const heldAtApplied = await projectionsNow();
      await writeHistory(credits, 2);
      const behind = await audit();
      expect(behind.differences).to.deep.equal([]);
      expect(behind).to.include({ holds: true, usage_records_until: applied });

      await records.catchUp();
      const ahead = await audit(heldAtApplied);
      expect(ahead.differences).to.deep.equal([]);
      expect(ahead).to.include({ holds: true, usage_records_until: await subject.store.headPosition() });
      expect(ahead.events, 'the first round only').to.be.below(behind.events);
    });

    if (!corrupt) return;
    it('names the account whose records differ from the events: a credit changed, a refund mark lost, a record lost', async () => {
      const corruptions = [
        `UPDATE {table} SET credits = credits + 1 WHERE account = 'acc_1' AND reference = 'req_1_3'`,
        `UPDATE {table} SET refunded = (1 = 0) WHERE account = 'acc_1' AND reference = 'req_1_0'`,
        `DELETE FROM {table} WHERE account = 'acc_2' AND reference = 'req_1'`,
      ];
      const whats: [string, string][][] = [
        [['acc_1', 'usage_records']],
        [['acc_1', 'usage_records']],
        [
          ['acc_1', 'usage_records'],
          ['acc_2', 'usage_records'],
        ],
      ];
      for (const [index, statement] of corruptions.entries()) {
        await corrupt(subject.store, statement);
        const report = await audit();
        expect(report.holds, statement).to.equal(false);
        expect(report.chain_breaks).to.deep.equal([]);
        expect(
          report.differences.map((d) => [d.account_id, d.what]),
          statement,
        ).to.deep.equal(whats[index]);
      }
      const [changed] = (await audit()).differences;
      expect(changed).to.deep.include({
        replayed: {
          live: { records: 6, credits: 16, refunded_records: 2, refunded_credits: 4 },
          test: { records: 4, credits: 16, refunded_records: 0, refunded_credits: 0 },
        },
        projected: {
          live: { records: 6, credits: 16, refunded_records: 1, refunded_credits: 2 },
          test: { records: 4, credits: 17, refunded_records: 0, refunded_credits: 0 },
        },
      });
    });
  });
}

describeAudit('memory', async () => {
  const store = new MemoryEventStore();
  return { store, close: () => store.close() };
});

describeAudit(
  'sqlite',
  async () => {
    const dir = await mkdtemp(join(tmpdir(), 'finsynth-records-audit-'));
    const store = new SqliteEventStore(join(dir, 'events.db'));
    return {
      store,
      async close() {
        await store.close();
        await rm(dir, { recursive: true, force: true });
      },
    };
  },
  async (store, statement) => void store.db.exec(statement.replace('{table}', 'usage_records')),
);

describeAudit(
  'postgres',
  async (context) => {
    const url = await requirePostgres(context);
    const schema = uniquePostgresSchema('records_audit');
    const store = await PostgresEventStore.open(url, { schema });
    return {
      store,
      async close() {
        await store.close();
        await dropPostgresSchema(url, schema);
      },
    };
  },
  async (store, statement) =>
    void (await store.pool.query(statement.replace('{table}', `${store.schema}.usage_records`))),
);
