/**
 * `npm run bench -- store [--json]`: single and batched appends (8 streams at once), read-all and replay rates of
 * each available event store adapter (sqlite always, postgres when FINSYNTH_POSTGRES_URL is set), each on a fresh
 * database removed afterwards. Single appends carry their exact expected revision, as the command handler's do.
 */
import { performance } from 'node:perf_hooks';
import type { BenchOptions } from './index.js';
import type { EventStore } from '../core/store/event-store.js';
import { adapters, appendConcurrently, payment, WRITERS, type Adapter } from './_stores.js';

const SINGLE_EVENTS = 20_000;
const BATCH_EVENTS = 200_000;
const BATCH_SIZE = 100;
const PAGE = 1_000;

export interface StoreFigures {
  append_single_per_s: number;
  append_batch_per_s: number;
  read_all_per_s: number;
  replay_per_s: number;
}

async function perSecond(events: number, work: () => Promise<void>): Promise<number> {
  const started = performance.now();
  await work();
  return Math.round(events / ((performance.now() - started) / 1000));
}

async function readEverything(
  store: EventStore,
  after: number,
  onEvent: (event: { stream: string; data: unknown }) => void,
): Promise<number> {
  let checkpoint = after;
  let count = 0;
  for (;;) {
    const page = await store.readAll({ after: checkpoint, maxCount: PAGE });
    for (const event of page) onEvent(event);
    count += page.length;
    if (page.length < PAGE) return count;
    checkpoint = page[page.length - 1].position;
  }
}

async function measure(adapter: Adapter): Promise<StoreFigures> {
  const { store, dispose } = await adapter.open();
  try {
    const append_single_per_s = await perSecond(SINGLE_EVENTS, () =>
      appendConcurrently(store, 'single', SINGLE_EVENTS, 1),
    );
    const before = await store.headPosition();
    const append_batch_per_s = await perSecond(BATCH_EVENTS, () =>
      appendConcurrently(store, 'batch', BATCH_EVENTS, BATCH_SIZE),
    );

    let read = 0;
    const read_all_per_s = await perSecond(BATCH_EVENTS, async () => {
      read = await readEverything(store, before, () => {});
    });
    if (read !== BATCH_EVENTS) throw new Error(`read ${read} events back, appended ${BATCH_EVENTS}`);

    const balances = new Map<string, number>();
    const replay_per_s = await perSecond(BATCH_EVENTS, async () => {
      await readEverything(store, before, (event) => {
        const amount = (event.data as { amount_minor: number }).amount_minor;
        balances.set(event.stream, (balances.get(event.stream) ?? 0) + amount);
      });
    });
    if (balances.size !== WRITERS) throw new Error(`replay folded ${balances.size} streams, expected ${WRITERS}`);

    return { append_single_per_s, append_batch_per_s, read_all_per_s, replay_per_s };
  } finally {
    await dispose();
  }
}

export async function run({ json }: BenchOptions): Promise<Record<string, StoreFigures>> {
  const log = json ? console.error : console.log;
  const bytes = Buffer.byteLength(JSON.stringify(payment(123_456).data));
  log(
    `event store: ${SINGLE_EVENTS} single appends and ${BATCH_EVENTS} batched (${BATCH_SIZE}/append), ` +
      `${WRITERS} streams concurrently, ${bytes} bytes of data per event`,
  );
  const results: Record<string, StoreFigures> = {};
  for (const adapter of adapters()) {
    results[adapter.name] = await measure(adapter);
    const r = results[adapter.name];
    log(
      `${adapter.name.padEnd(9)} single ${r.append_single_per_s.toLocaleString('en')}/s ` +
        `· batched ${r.append_batch_per_s.toLocaleString('en')}/s · read all ` +
        `${r.read_all_per_s.toLocaleString('en')}/s · replay ${r.replay_per_s.toLocaleString('en')}/s`,
    );
  }
  if (!process.env.FINSYNTH_POSTGRES_URL) log('postgres: skipped (FINSYNTH_POSTGRES_URL is not set)');
  return results;
}
