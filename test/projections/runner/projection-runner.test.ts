import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { EventRegistry } from '../../../core/events/registry.js';
import type { RecordedEvent } from '../../../core/events/envelope.js';
import type { EventStore } from '../../../core/store/event-store.js';
import { MemoryEventStore } from '../../../core/store/memory-store.js';
import { PostgresEventStore } from '../../../core/store/postgres-store.js';
import { SqliteEventStore } from '../../../core/store/sqlite-store.js';
import { ProblemError } from '../../../core/problems.js';
import type { Projection } from '../../../projections/runner/projection.js';
import { ProjectionRunner } from '../../../projections/runner/projection-runner.js';
import { MemorySnapshotStore, type SnapshotStore } from '../../../projections/runner/snapshot-store.js';
import { turnsDuring } from '../../support/event-loop-turns.js';
import { dropPostgresSchema, requirePostgres, uniquePostgresSchema } from '../../support/external-services.js';

const registry = new EventRegistry([
  {
    type: 'Deposited',
    version: 2,
    schema: {},
    upcasters: { 1: (data) => ({ amount_minor: (data as { amount: number }).amount * 100 }) },
  },
  { type: 'Withdrawn', version: 1, schema: {} },
  { type: 'Noted', version: 1, schema: {} },
]);

type Balances = Map<string, number>;

/** A balance per stream; counts its applies so that tests can tell a resume from a replay. */
function balances(options: { version?: number; failOn?: (event: RecordedEvent) => boolean } = {}) {
  const applied: number[] = [];
  const projection: Projection<Balances> = {
    name: 'balances',
    version: options.version ?? 1,
    handles: ['Deposited', 'Withdrawn'],
    initialState: () => new Map(),
    apply(state, event) {
      if (options.failOn?.(event)) throw new Error('cannot apply this one');
      applied.push(event.position);
      const data = event.data as { amount_minor: number };
      const sign = event.type === 'Withdrawn' ? -1 : 1;
      state.set(event.stream, (state.get(event.stream) ?? 0) + sign * data.amount_minor);
      return state;
    },
    toJSON: (state) => Object.fromEntries([...state].sort(([a], [b]) => a.localeCompare(b))),
    fromJSON: (json) => new Map(Object.entries(json as Record<string, number>)),
  };
  return { projection, applied };
}

const counter: Projection<{ events: number }> = {
  name: 'counter',
  version: 1,
  handles: ['Deposited', 'Withdrawn', 'Noted'],
  initialState: () => ({ events: 0 }),
  apply: (state) => ({ events: state.events + 1 }),
  toJSON: (state) => state,
  fromJSON: (json) => json as { events: number },
};

const deposit = (amount_minor: number) => ({ type: 'Deposited', version: 2, data: { amount_minor } });
const withdraw = (amount_minor: number) => ({ type: 'Withdrawn', data: { amount_minor } });

interface Backend {
  name: string;
  /** The store under test; `another` opens a second handle on the same events (another process, another instance). */
  open(context: Mocha.Context): Promise<{
    store: EventStore;
    another(): Promise<EventStore>;
    snapshots?: SnapshotStore;
    cleanup(): Promise<void>;
  }>;
}

const backends: Backend[] = [
  {
    name: 'memory',
    async open() {
      const store = new MemoryEventStore();
      return { store, another: async () => store, snapshots: new MemorySnapshotStore(), cleanup: () => store.close() };
    },
  },
  {
    name: 'sqlite',
    async open() {
      const dir = mkdtempSync(join(tmpdir(), 'finsynth-runner-'));
      const file = join(dir, 'events.db');
      const store = new SqliteEventStore(file);
      const others: EventStore[] = [];
      return {
        store,
        another: async () => {
          const other = new SqliteEventStore(file);
          others.push(other);
          return other;
        },
        async cleanup() {
          for (const s of [store, ...others]) await s.close();
          rmSync(dir, { recursive: true, force: true });
        },
      };
    },
  },
  {
    name: 'postgres',
    async open(context) {
      const url = await requirePostgres(context);
      const schema = uniquePostgresSchema('runner');
      const store = await PostgresEventStore.open(url, { schema });
      const others: EventStore[] = [];
      return {
        store,
        another: async () => {
          const other = await PostgresEventStore.open(url, { schema });
          others.push(other);
          return other;
        },
        async cleanup() {
          for (const s of [store, ...others]) await s.close();
          await dropPostgresSchema(url, schema);
        },
      };
    },
  },
];

for (const backend of backends) {
  describe(`ProjectionRunner on ${backend.name}`, function () {
    let env: Awaited<ReturnType<Backend['open']>>;
    const runners: ProjectionRunner[] = [];
    const runner = (
      projections: Projection<unknown>[],
      options: ConstructorParameters<typeof ProjectionRunner>[4] = {},
      store = env.store,
    ) => {
      const created = new ProjectionRunner(store, registry, projections, env.snapshots, options);
      runners.push(created);
      return created;
    };

    beforeEach(async function () {
      env = await backend.open(this);
    });

    afterEach(async () => {
      for (const r of runners.splice(0)) await r.stop();
      await env?.cleanup();
    });

    it('catches up from the first event on start, upcasting old versions before apply', async () => {
      await env.store.append('acc-a', [{ type: 'Deposited', version: 1, data: { amount: 5 } }, withdraw(120)]);
      await env.store.append('acc-b', [deposit(700), { type: 'Noted', data: {} }]);
      const { projection } = balances();
      const r = runner([projection, counter]);
      await r.start();
      expect(r.state<Balances>('balances')).to.deep.equal(
        new Map([
          ['acc-a', 380],
          ['acc-b', 700],
        ]),
      );
      expect(r.state<{ events: number }>('counter')).to.deep.equal({ events: 4 });
      const head = await env.store.headPosition();
      expect(r.status()).to.deep.equal([
        { name: 'balances', version: 1, checkpoint: head, lag: 0, error: null },
        { name: 'counter', version: 1, checkpoint: head, lag: 0, error: null },
      ]);
    });

    it('waitFor catches up at once, without waiting for the next poll', async () => {
      const { projection } = balances();
      const r = runner([projection], { pollIntervalMs: 60_000 });
      await r.start();
      const { position } = await env.store.append('acc-a', [deposit(250)]);
      expect(r.status()[0].checkpoint).to.be.below(position);
      await r.waitFor(position);
      expect(r.state<Balances>('balances').get('acc-a')).to.equal(250);
      expect(r.status()[0].checkpoint).to.equal(position);
    });

    it('waitFor a position that never comes ends with a projection-lag problem (503, Retry-After)', async () => {
      const r = runner([counter], { pollIntervalMs: 20 });
      await r.start();
      const { position } = await env.store.append('acc-a', [deposit(1)]);
      const error = await r.waitFor(position + 1_000_000, 100).then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(error).to.be.instanceOf(ProblemError);
      expect((error as ProblemError).type).to.include({ slug: 'projection-lag', status: 503 });
      expect((error as ProblemError).headers).to.deep.equal({ 'Retry-After': '1' });
    });

    it('follows events appended through another handle on the same store (another process or instance)', async () => {
      const r = runner([counter], { pollIntervalMs: 20 });
      await r.start();
      const other = await env.another();
      await other.append('acc-x', [deposit(1), deposit(2), withdraw(3)]);
      const deadline = Date.now() + 10_000;
      while (r.state<{ events: number }>('counter').events < 3 && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 10));
      expect(r.state<{ events: number }>('counter')).to.deep.equal({ events: 3 });
    });

    it('a projection that throws stops at that event, named in status; the others go on and waitFor passes', async () => {
      await env.store.append('acc-a', [deposit(100)]);
      const poison = await env.store.append('acc-a', [withdraw(999)]);
      const { position } = await env.store.append('acc-a', [deposit(1)]);
      const { projection } = balances({ failOn: (event) => event.type === 'Withdrawn' });
      const r = runner([projection, counter]);
      await r.start();
      await r.waitFor(position);
      const [failed, healthy] = r.status();
      expect(failed.error).to.deep.equal({
        position: poison.position,
        event_type: 'Withdrawn',
        message: 'cannot apply this one',
      });
      expect(failed.checkpoint).to.be.below(poison.position);
      expect(r.state<Balances>('balances').get('acc-a')).to.equal(100);
      expect(healthy).to.deep.include({ name: 'counter', checkpoint: position, error: null });
      expect(r.state<{ events: number }>('counter').events).to.equal(3);
    });

    it('resumes from its snapshot: state and checkpoint saved together, nothing applied twice', async () => {
      await env.store.append('acc-a', [deposit(100), withdraw(30)]);
      const first = balances();
      const r1 = runner([first.projection]);
      await r1.start();
      await r1.stop();
      expect(first.applied).to.have.length(2);

      const { position } = await env.store.append('acc-a', [deposit(5)]);
      const second = balances();
      const r2 = runner([second.projection]);
      await r2.start();
      await r2.waitFor(position);
      expect(second.applied).to.deep.equal([position]);
      expect(r2.state<Balances>('balances').get('acc-a')).to.equal(75);
    });

    it('discards a snapshot of another projection version and rebuilds from zero', async () => {
      await env.store.append('acc-a', [deposit(100), withdraw(30)]);
      const r1 = runner([balances({ version: 1 }).projection]);
      await r1.start();
      await r1.stop();

      const next = balances({ version: 2 });
      const r2 = runner([next.projection]);
      await r2.start();
      expect(next.applied).to.have.length(2);
      expect(r2.state<Balances>('balances').get('acc-a')).to.equal(70);
      expect(r2.status()[0].version).to.equal(2);
    });

    it('leaves the event loop a turn between the pages of a catch-up', async () => {
      for (let i = 0; i < 10; i += 1) await env.store.append(`acc-${i}`, [deposit(1)]);
      const r = runner([counter], { batchSize: 2 });
      const turns = await turnsDuring(() => r.rebuild());
      expect(r.state<{ events: number }>('counter').events).to.equal(10);
      // Five full pages and an empty one: a turn after each full page, whatever the store's reads wait for.
      expect(turns).to.be.at.least(5);
    });

    it('rebuilds every projection handing each page it reads, once and in order, to a read model alongside', async () => {
      for (let i = 0; i < 7; i += 1) await env.store.append(`acc-${i % 3}`, [deposit(10), withdraw(i)]);
      const { projection } = balances();
      const r = runner([projection, counter], { batchSize: 4 });
      await r.start();
      const seen: number[][] = [];
      const lasts: boolean[] = [];
      await r.rebuildAll(async (events, last) => {
        seen.push(events.map((event) => event.position));
        lasts.push(last);
      });
      expect(lasts).to.deep.equal([false, false, false, true]);
      const head = await env.store.headPosition();
      expect(seen.flat()).to.deep.equal((await env.store.readAll()).map((event) => event.position));
      expect(seen.flat().at(-1)).to.equal(head);
      expect(seen.slice(0, -1).every((page) => page.length === 4)).to.equal(true);
      expect(r.state<{ events: number }>('counter').events).to.equal(14);
      expect(projection.toJSON(r.state<Balances>('balances'))).to.deep.equal({
        'acc-0': 30 - (0 + 3 + 6),
        'acc-1': 20 - (1 + 4),
        'acc-2': 20 - (2 + 5),
      });
      expect(r.status().every((status) => status.checkpoint === head)).to.equal(true);
    });

    it('rebuild replays from zero to the same model and clears a failure', async () => {
      let broken = true;
      await env.store.append('acc-a', [deposit(100), withdraw(30)]);
      await env.store.append('acc-b', [deposit(7)]);
      const { projection, applied } = balances({ failOn: (event) => broken && event.type === 'Withdrawn' });
      const r = runner([projection, counter]);
      await r.start();
      expect(r.status()[0].error?.event_type).to.equal('Withdrawn');

      broken = false;
      await r.rebuild('balances');
      expect(r.status()[0]).to.deep.include({ error: null, checkpoint: await env.store.headPosition() });
      expect(projection.toJSON(r.state<Balances>('balances'))).to.deep.equal({ 'acc-a': 70, 'acc-b': 7 });
      expect(applied.length).to.equal(4);

      const before = JSON.stringify(projection.toJSON(r.state<Balances>('balances')));
      await r.rebuild();
      expect(JSON.stringify(projection.toJSON(r.state<Balances>('balances')))).to.equal(before);
      expect(r.state<{ events: number }>('counter').events).to.equal(3);
    });
  });
}

describe('ProjectionRunner snapshots', () => {
  it('are written at most once per interval while running, and on stop', async () => {
    const store = new MemoryEventStore();
    const saved: number[] = [];
    const snapshots = new MemorySnapshotStore();
    const counting: SnapshotStore = {
      load: (name) => snapshots.load(name),
      async save(list) {
        saved.push(...list.map((snapshot) => snapshot.position));
        await snapshots.save(list);
      },
    };
    const runner = new ProjectionRunner(store, registry, [counter], counting, { snapshotIntervalMs: 60_000 });
    await runner.start();
    for (let n = 0; n < 5; n += 1) await runner.waitFor((await store.append('acc-a', [deposit(n)])).position);
    expect(saved).to.deep.equal([]);
    await runner.stop();
    expect(saved).to.deep.equal([5]);
    expect(await snapshots.load('counter')).to.deep.equal({
      name: 'counter',
      version: 1,
      position: 5,
      state: { events: 5 },
    });
  });
});

describe('ProjectionRunner.waitForHead', () => {
  /** A store whose head reads take 50 ms each, counted. */
  class SlowHeadStore extends MemoryEventStore {
    headReads = 0;
    override async headPosition(): Promise<number> {
      this.headReads++;
      const head = await super.headPosition();
      await new Promise((resolve) => setTimeout(resolve, 50));
      return head;
    }
  }

  it('shares the store reads of calls made at once: the one under way, then one that starts after it', async () => {
    const store = new SlowHeadStore();
    const runner = new ProjectionRunner(store, registry, [counter], undefined, { pollIntervalMs: 60_000 });
    await runner.start();
    const before = store.headReads;
    await Promise.all(Array.from({ length: 50 }, () => runner.waitForHead()));
    expect(store.headReads - before).to.equal(2);
    await runner.stop();
  });

  it('sees an event appended while a read was under way, through the read that starts after it', async () => {
    const store = new SlowHeadStore();
    const runner = new ProjectionRunner(store, registry, [counter], undefined, { pollIntervalMs: 60_000 });
    await runner.start();
    const first = runner.waitForHead();
    // Appended after the first read took the head: a call made now must see it.
    await new Promise((resolve) => setTimeout(resolve, 10));
    await store.append('acc-a', [deposit(1)]);
    const second = runner.waitForHead();
    await Promise.all([first, second]);
    expect(runner.state<{ events: number }>('counter').events).to.equal(1);
    await runner.stop();
  });
});

describe('ProjectionRunner snapshots of a state slow to write', () => {
  it('wait twenty times as long as the last took to write, however short the interval', async () => {
    const store = new MemoryEventStore();
    const saved: number[] = [];
    const slow: SnapshotStore = {
      load: async () => undefined,
      async save(list) {
        saved.push(...list.map((snapshot) => snapshot.position));
        // A write of 300 ms: the next is not due for 6 s, while each pass below would otherwise write one.
        await new Promise((resolve) => setTimeout(resolve, 300));
      },
    };
    const runner = new ProjectionRunner(store, registry, [counter], slow, { snapshotIntervalMs: 0, pollIntervalMs: 5 });
    await runner.start();
    for (let n = 0; n < 5; n += 1) await runner.waitFor((await store.append('acc-a', [deposit(n)])).position);
    expect(saved).to.deep.equal([1]);
    await runner.stop();
    expect(saved).to.deep.equal([1, 5]);
  });
});

describe('ProjectionRunner stopping while the store is down', () => {
  it('reports the snapshots it could not write and stops all the same', async () => {
    const store = new MemoryEventStore();
    const failing: SnapshotStore = {
      load: async () => undefined,
      save: async () => {
        throw new Error('the store cannot be reached');
      },
    };
    const errors: unknown[] = [];
    const runner = new ProjectionRunner(store, registry, [counter], failing, {
      snapshotIntervalMs: 60_000,
      onError: (error) => errors.push(error),
    });
    await runner.start();
    await runner.waitFor((await store.append('acc-a', [deposit(1)])).position);
    await runner.stop();
    expect(errors.map(String)).to.deep.equal(['Error: the store cannot be reached']);
  });
});

describe('ProjectionRunner during a store outage', () => {
  it('reports the first failed catch-up of an outage, not every poll, and the first of the next outage again', async () => {
    let down = false;
    let failedReads = 0;
    /** A store whose reads fail while it is down, counting them. */
    class FlakyStore extends MemoryEventStore {
      override async readAll(...args: Parameters<MemoryEventStore['readAll']>) {
        if (down) {
          failedReads++;
          throw new Error('the store cannot be reached');
        }
        return super.readAll(...args);
      }
    }
    const store = new FlakyStore();
    const errors: unknown[] = [];
    const runner = new ProjectionRunner(store, registry, [counter], undefined, {
      pollIntervalMs: 2,
      onError: (error) => errors.push(error),
    });
    const failedPolls = async (count: number) => {
      const until = failedReads + count;
      while (failedReads < until) await new Promise((resolve) => setTimeout(resolve, 2));
    };
    await runner.start();
    try {
      down = true;
      await failedPolls(20);
      expect(errors).to.have.length(1);
      down = false;
      await runner.waitFor((await store.append('acc-a', [deposit(1)])).position);
      expect(runner.state<{ events: number }>('counter').events).to.equal(1);
      down = true;
      await failedPolls(20);
      expect(errors).to.have.length(2);
    } finally {
      down = false;
      await runner.stop();
    }
  });
});
