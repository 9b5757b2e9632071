import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreditsService } from '../../../core/accounts/credits-service.js';
import { CommandHandler } from '../../../core/commands/command-handler.js';
import { accountDecider, accountStream } from '../../../core/accounts/account.js';
import { eventDefinitions } from '../../../core/services/event-definitions.js';
import { EventRegistry } from '../../../core/events/registry.js';
import type { EventStore } from '../../../core/store/event-store.js';
import { PostgresEventStore } from '../../../core/store/postgres-store.js';
import { SqliteEventStore } from '../../../core/store/sqlite-store.js';
import { ProblemError } from '../../../core/problems.js';
import { dropPostgresSchema, requirePostgres, uniquePostgresSchema } from '../../support/external-services.js';

interface TwoConnections {
  /** Two connections to one store, as two processes of a fleet have. */
  open(context: Mocha.Context): Promise<[EventStore, EventStore]>;
  cleanUp(): Promise<void>;
}

function sqlite(): TwoConnections {
  let dir: string;
  return {
    async open() {
      dir = await mkdtemp(join(tmpdir(), 'finsynth-credits-'));
      return [new SqliteEventStore(join(dir, 'events.db')), new SqliteEventStore(join(dir, 'events.db'))];
    },
    cleanUp: () => rm(dir, { recursive: true, force: true }),
  };
}

function postgres(): TwoConnections {
  let url: string | undefined;
  const schema = uniquePostgresSchema('credits');
  return {
    async open(context) {
      url = await requirePostgres(context);
      return [await PostgresEventStore.open(url, { schema }), await PostgresEventStore.open(url, { schema })];
    },
    cleanUp: async () => {
      if (url) await dropPostgresSchema(url, schema);
    },
  };
}

for (const [name, connections] of [
  ['sqlite', sqlite()],
  ['postgres', postgres()],
] as const) {
  describe(`credits under concurrency, two connections to one ${name} store`, () => {
    let stores: EventStore[] = [];

    before(async function () {
      stores = await connections.open(this);
    });
    after(async () => {
      for (const store of stores) await store.close();
      await connections.cleanUp();
    });

    it('200 concurrent debits on a balance that covers 37: exactly 37 succeed, the balance ends at zero', async () => {
      const registry = new EventRegistry(eventDefinitions);
      const [first, second] = stores.map((store) => new CreditsService(new CommandHandler(store, registry)));
      const commands = new CommandHandler(stores[0]!, registry);
      await commands.handle(accountDecider, accountStream('acc_c'), {
        type: 'OpenAccount',
        accountId: 'acc_c',
        tier: 'free',
        at: '2026-01-01T00:00:00.000Z',
      });
      await first!.grant({ accountId: 'acc_c', amount: 37 * 2, reference: 'opening', reason: 'test' });

      const results = await Promise.allSettled(
        Array.from({ length: 200 }, (_, i) =>
          (i % 2 ? first! : second!).debit({
            accountId: 'acc_c',
            mode: 'live',
            keyId: null,
            reference: `req_${i}`,
            operation: 'quick',
            sector: 'cards',
            tables: [{ name: 'transactions', rows: 1000, credits: 2 }],
            credits: 2,
          }),
        ),
      );
      const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
      for (const { reason } of refused)
        expect((reason as ProblemError).type?.slug, String(reason)).to.equal('insufficient-credits');
      expect(results.length - refused.length).to.equal(37);
      expect(await second!.balance('acc_c')).to.deep.equal({ credits_available: 0, credits_reserved: 0 });
      expect((await stores[1]!.verifyStream(accountStream('acc_c'))).intact).to.equal(true);
    });
  });
}
