import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NewEvent } from '../core/events/envelope.js';
import type { EventStore } from '../core/store/event-store.js';
import { SqliteEventStore } from '../core/store/sqlite-store.js';
import { PostgresEventStore } from '../core/store/postgres-store.js';
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
