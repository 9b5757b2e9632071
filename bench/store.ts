/**
 * `npm run bench -- store [--rebuild N] [--json]`: single and batched appends (8 streams at once), read-all and
 * replay rates of each available event store adapter (sqlite always, postgres when FINSYNTH_POSTGRES_URL is set),
 * each on a fresh database removed afterwards. Single appends carry their exact expected revision, as the command
 * handler's do. Then a full projection rebuild on sqlite: N events (1,000,000 by default; 0 skips it) of credit
 * and job history appended, and every read model the service keeps (the projections, the usage records) rebuilt
 * from zero, as the service wires them.
 */
import { performance } from 'node:perf_hooks';
import type { BenchOptions } from './index.js';
import type { EventStore } from '../core/store/event-store.js';
import { EventRegistry } from '../core/events/registry.js';
import { eventDefinitions } from '../core/services/event-definitions.js';
import { projections } from '../projections/index.js';
import { ProjectionRunner } from '../projections/runner/projection-runner.js';
import { usageRecordsFor } from '../projections/usage/usage-records-for-store.js';
import { rebuildReadModels } from '../projections/rebuild-read-models.js';
import { adapters, appendConcurrently, fillWithProductionHistory, payment, WRITERS, type Adapter } from './_stores.js';

const SINGLE_EVENTS = 20_000;
const BATCH_EVENTS = 200_000;
const BATCH_SIZE = 100;
const PAGE = 1_000;
const REBUILD_EVENTS = 1_000_000;
/** Accounts of the rebuild's store: each round appends one slice of every account's history. */
const REBUILD_ACCOUNTS = 1_000;
const REBUILD_TARGET_S = 5;

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

export interface RebuildFigures {
  events: number;
  /** Appending them, for scale: not a target. */
  fill_s: number;
  /** Every read model rebuilt from zero. */
  rebuild_s: number;
  rebuild_per_s: number;
}

/**
 * The read models rebuilt as the service keeps them (core/services/services.ts): the projection runner's, with
 * their snapshots saved, and the usage records' table, both from the first event in one read (rebuildReadModels).
 */
async function measureRebuild(adapter: Adapter, total: number): Promise<RebuildFigures> {
  const { store, dispose } = await adapter.open();
  try {
    let started = performance.now();
    const events = await fillWithProductionHistory(store, total, REBUILD_ACCOUNTS);
    const fill_s = (performance.now() - started) / 1000;
    const registry = new EventRegistry(eventDefinitions);
    const runner = new ProjectionRunner(store, registry, projections);
    const usageRecords = usageRecordsFor(store, registry);
    started = performance.now();
    await rebuildReadModels(runner, usageRecords);
    const rebuild_s = (performance.now() - started) / 1000;
    const stopped = runner.status().find((status) => status.error !== null || status.checkpoint !== events);
    if (stopped) throw new Error(`the rebuild left ${stopped.name} at ${JSON.stringify(stopped)}`);
    if ((await usageRecords.table.checkpoint()) !== events) throw new Error('the usage records did not catch up');
    return {
      events,
      fill_s: Number(fill_s.toFixed(1)),
      rebuild_s: Number(rebuild_s.toFixed(2)),
      rebuild_per_s: Math.round(events / rebuild_s),
    };
  } finally {
    await dispose();
  }
}

function rebuildSize(args: string[]): number {
  const at = args.indexOf('--rebuild');
  if (at === -1) return REBUILD_EVENTS;
  const value = Number(args[at + 1]);
  if (!Number.isInteger(value) || value < 0) {
    console.error('usage: npm run bench -- store [--rebuild N] [--json] (N: events, 0 skips the rebuild)');
    process.exit(2);
  }
  return value;
}

export async function run({ json, args }: BenchOptions): Promise<Record<string, StoreFigures | RebuildFigures>> {
  const log = json ? console.error : console.log;
  const bytes = Buffer.byteLength(JSON.stringify(payment(123_456).data));
  log(
    `event store: ${SINGLE_EVENTS} single appends and ${BATCH_EVENTS} batched (${BATCH_SIZE}/append), ` +
      `${WRITERS} streams concurrently, ${bytes} bytes of data per event`,
  );
  const rebuildEvents = rebuildSize(args);
  const results: Record<string, StoreFigures | RebuildFigures> = {};
  for (const adapter of adapters()) {
    const r = await measure(adapter);
    results[adapter.name] = r;
    log(
      `${adapter.name.padEnd(9)} single ${r.append_single_per_s.toLocaleString('en')}/s ` +
        `· batched ${r.append_batch_per_s.toLocaleString('en')}/s · read all ` +
        `${r.read_all_per_s.toLocaleString('en')}/s · replay ${r.replay_per_s.toLocaleString('en')}/s`,
    );
  }
  if (!process.env.FINSYNTH_POSTGRES_URL) log('postgres: skipped (FINSYNTH_POSTGRES_URL is not set)');
  if (rebuildEvents > 0) {
    const r = await measureRebuild(
      adapters().find((adapter) => adapter.name === 'sqlite')!,
      rebuildEvents,
    );
    results.rebuild = r;
    log(
      `sqlite    projection rebuild of ${r.events.toLocaleString('en')} events (appended in ${r.fill_s} s): ` +
        `${r.rebuild_s} s = ${r.rebuild_per_s.toLocaleString('en')}/s ` +
        (r.events < REBUILD_EVENTS
          ? `(the target, ${REBUILD_TARGET_S} s, is for ${REBUILD_EVENTS.toLocaleString('en')})`
          : `(${r.rebuild_s < REBUILD_TARGET_S ? 'meets' : 'ABOVE'} the target of ${REBUILD_TARGET_S} s)`),
    );
  }
  return results;
}
