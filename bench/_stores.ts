import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NewEvent } from '../core/events/envelope.js';
import type { EventStore } from '../core/store/event-store.js';
import { SqliteEventStore } from '../core/store/sqlite-store.js';
import { PostgresEventStore } from '../core/store/postgres-store.js';
import { accountStream } from '../core/accounts/stream-name.js';
import { jobStream } from '../core/jobs/decider.js';
import { dropPostgresSchema, uniquePostgresSchema } from '../test/support/external-services.js';

/** What the store benches share: the stores they open, the events they append and how. */

/** Concurrent writers of `appendConcurrently`, each on a stream of its own. */
export const WRITERS = 8;

export interface Adapter {
  name: string;
  open(): Promise<{ store: EventStore; dispose(): Promise<void> }>;
}

export function adapters(): Adapter[] {
  const list: Adapter[] = [
    {
      name: 'sqlite',
      async open() {
        const dir = mkdtempSync(join(tmpdir(), 'finsynth-bench-'));
        const store = new SqliteEventStore(join(dir, 'events.db'));
        return {
          store,
          dispose: async () => {
            await store.close();
            rmSync(dir, { recursive: true, force: true });
          },
        };
      },
    },
  ];
  const url = process.env.FINSYNTH_POSTGRES_URL;
  if (url) {
    list.push({
      name: 'postgres',
      async open() {
        const schema = uniquePostgresSchema('bench');
        const store = await PostgresEventStore.open(url, { schema, poolSize: WRITERS + 2 });
        return {
          store,
          dispose: async () => {
            await store.close();
            await dropPostgresSchema(url, schema);
          },
        };
      },
    });
  }
  return list;
}

export /** A card payment of about 200 bytes of JSON. */
function payment(n: number): NewEvent {
  return {
    type: 'PaymentCaptured',
    data: {
      payment_id: `pay_${n.toString(36).padStart(12, '0')}`,
      amount_minor: (n * 7919) % 100_000,
      currency: 'EUR',
      merchant: { name: 'Bäckerei Schmidt GmbH', mcc: '5462', country: 'DE' },
      card: { network: 'visa', last4: String(n % 10_000).padStart(4, '0') },
      captured_at: '2026-11-22T10:15:30.123Z',
    },
  };
}

export /** 8 writers, each on its own stream, each appending `total / 8` events in appends of `size`. */
async function appendConcurrently(store: EventStore, prefix: string, total: number, size: number): Promise<void> {
  await Promise.all(
    Array.from({ length: WRITERS }, async (_, writer) => {
      const stream = `${prefix}-${writer}`;
      let revision: number | 'no_stream' = 'no_stream';
      for (let done = 0; done < total / WRITERS; done += size) {
        const events = Array.from({ length: size }, (_, i) => payment(writer * total + done + i));
        revision = (await store.append(stream, events, { expectedRevision: revision })).nextRevision;
      }
    }),
  );
}

/** Events per account per round of `productionHistory`: a fill appends one round of every account at a time. */
export const EVENTS_PER_ROUND = 10;

const jobIdOf = (accountId: string, round: number): string => `job_${accountId}_${round}`;

/**
 * The n-th slice of an account's history as production writes it: credit events on the account's stream (an
 * opening grant, quick generations, a refund of a failed one, a job's reservation and its settlement) and the
 * job's own events on its stream (created, started, progressed, succeeded). Two appends: the account's, the job's.
 */
export function productionHistory(accountId: string, round: number): { account: NewEvent[]; job: NewEvent[] } {
  const at = '2026-11-22T10:15:30.123Z';
  const metadata = { request_id: `req_${round}`, key_id: 'key_bench000000000000', mode: 'live' as const };
  const tables = [{ name: 'transactions', rows: 1500, credits: 3 }];
  const jobId = jobIdOf(accountId, round);
  const account: NewEvent[] = [];
  if (round === 0)
    account.push(
      { type: 'AccountOpened', data: { account_id: accountId, tier: 'team', opened_at: at } },
      { type: 'CreditsGranted', data: { reference: `opening-${accountId}`, credits: 10_000_000, reason: 'allowance' } },
    );
  const debit = (reference: string): NewEvent => ({
    type: 'CreditsDebited',
    data: {
      reference,
      mode: 'live',
      key_id: metadata.key_id,
      operation: 'generate.quick',
      sector: 'cards',
      tables,
      credits: 3,
    },
    metadata,
  });
  // The opening round's two events take the place of two debits, so that every round holds EVENTS_PER_ROUND.
  for (let i = round === 0 ? 2 : 0; i < 3; i += 1) account.push(debit(`r${round}_${i}`));
  account.push(
    {
      type: 'CreditsRefunded',
      data: { reference: `r${round}_2`, mode: 'live', credits: 3, reason: 'failed' },
      metadata,
    },
    {
      type: 'CreditsReserved',
      data: { reference: jobId, mode: 'live', key_id: metadata.key_id, sector: 'cards', tables, credits: 9 },
      metadata,
    },
    {
      type: 'CreditsSettled',
      data: { reference: jobId, mode: 'live', tables, credits: 3, released: 6 },
      metadata,
    },
  );
  const lease = { instance_id: 'ins_bench', lease_expires_at: at };
  const job: NewEvent[] = [
    {
      type: 'JobCreated',
      data: {
        job_id: jobId,
        account_id: accountId,
        mode: 'live',
        key_id: metadata.key_id,
        config: { sector: 'cards', seed: round, tables: { transactions: { rows: 1500 } } },
        plan: { sector: 'cards', seed: round, tables: [{ name: 'transactions', rows: 1500, chunks: 1 }] },
        output: { format: 'csv', compression: 'gzip' },
        estimate: { credits: 9, tables },
        created_at: at,
      },
      metadata,
    },
    { type: 'JobStarted', data: { job_id: jobId, ...lease, attempt: 1, started_at: at }, metadata },
    {
      type: 'JobProgressed',
      data: { job_id: jobId, ...lease, tables: [{ name: 'transactions', rows_done: 750, rows_total: 1500 }], at },
      metadata,
    },
    {
      type: 'JobSucceeded',
      data: {
        job_id: jobId,
        instance_id: lease.instance_id,
        files: [
          {
            table: 'transactions',
            file: 'transactions.csv.gz',
            format: 'csv',
            compression: 'gzip',
            rows: 1500,
            bytes: 98_304,
            sha256: 'a'.repeat(64),
          },
        ],
        credits: 3,
        finished_at: at,
      },
      metadata,
    },
  ];
  return { account, job };
}

/**
 * A store filled with about `total` events of `accounts` accounts (`productionHistory`): each round appends every
 * account's slice at once, so that the appends of a round share one commit and streams interleave as in production.
 */
export async function fillWithProductionHistory(store: EventStore, total: number, accounts: number): Promise<number> {
  const ids = Array.from({ length: accounts }, (_, i) => `acc_${String(i).padStart(6, '0')}`);
  const rounds = Math.ceil(total / (accounts * EVENTS_PER_ROUND));
  for (let round = 0; round < rounds; round += 1)
    await Promise.all(
      ids.flatMap((id) => {
        const { account, job } = productionHistory(id, round);
        return [store.append(accountStream(id), account), store.append(jobStream(jobIdOf(id, round)), job)];
      }),
    );
  return store.headPosition();
}
