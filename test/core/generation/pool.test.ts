import { expect } from 'chai';
import { startTestApp } from '../../support/app.js';
import { fileURLToPath } from 'node:url';
import { BroadcastChannel } from 'node:worker_threads';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { loadPacks } from '../../../core/packs/loader.js';
import type { PackRegistry } from '../../../core/packs/registry.js';
import { buildPlan } from '../../../core/generation/plan.js';
import { GenerationPool } from '../../../core/generation/pool.js';
import { ProblemError } from '../../../core/problems.js';
import { CountingUnexpectedErrors } from '../../../core/faults/unexpected-errors.js';

const faultyPack = fileURLToPath(new URL('./fixtures/faulty', import.meta.url));

describe('the generation pool under faulty generators', function () {
  this.timeout(60_000);
  let registry: PackRegistry;
  let pool: GenerationPool;

  before(async () => {
    registry = await loadPacks({ builtinDir: '/nonexistent', extra: [faultyPack] });
    pool = new GenerationPool(registry, { size: 1, chunkTimeoutMs: 2_000, workerMemoryMb: 48 });
  });
  after(() => pool.close());

  const generate = (table: string) =>
    pool.bytes(buildPlan(registry, { sector: 'faulty', seed: 1, tables: [{ name: table, rows: 10 }] }), table, {
      format: 'ndjson',
    });

  async function failure(table: string): Promise<ProblemError> {
    const error = await generate(table).then(
      () => expect.fail(`table ${table} should have failed`),
      (caught: unknown) => caught,
    );
    expect(error).to.be.instanceOf(ProblemError);
    return error as ProblemError;
  }

  async function stillServes(): Promise<void> {
    const bytes = await generate('fine');
    expect(bytes.toString().trim().split('\n')).to.have.length(10);
  }

  it('fails the chunk of a generator that throws, naming pack, table, chunk and the error; the pool still serves', async () => {
    const error = await failure('throws');
    expect(error.type.slug).to.equal('generation-failed');
    expect(error.detail)
      .to.contain('"faulty"')
      .and.to.contain('"throws"')
      .and.to.contain('chunk 0')
      .and.to.contain('the generator broke on purpose');
    await stillServes();
  });

  it('fails a generator that never returns at the time limit and replaces its worker', async () => {
    const error = await failure('hangs');
    expect(error.detail).to.contain('did not finish within 2 s');
    await stillServes();
  });

  it('fails a generator that exhausts its worker heap and replaces the worker', async () => {
    const error = await failure('hogs');
    expect(error.detail).to.contain('ran out of memory');
    await stillServes();
  });

  it('fails the plan of a rows_per_parent that throws in a worker, naming the parents it counted; the pool still serves', async () => {
    const error = await pool
      .plan({
        sector: 'faulty',
        seed: 1,
        tables: [
          { name: 'fine', rows: 10 },
          { name: 'miscounts', rows: 20 },
        ],
      })
      .then(
        () => expect.fail('the plan should have failed'),
        (caught: unknown) => caught,
      );
    expect(error).to.be.instanceOf(ProblemError);
    const { type, detail } = error as ProblemError;
    expect(type.slug).to.equal('generation-failed');
    expect(detail)
      .to.contain('"miscounts"')
      .and.to.contain('counting its rows per parent')
      .and.to.contain('the count broke on purpose');
    await stillServes();
  });

  it("stops at once when the caller aborts, with the caller's reason", async () => {
    const controller = new AbortController();
    const plan = buildPlan(registry, { sector: 'faulty', seed: 1, tables: [{ name: 'hangs', rows: 10 }] });
    const pending = pool.bytes(plan, 'hangs', { format: 'ndjson', signal: controller.signal });
    setTimeout(() => controller.abort(new Error('client went away')), 100);
    const error = await pending.then(
      () => null,
      (caught: Error) => caught,
    );
    expect(error?.message).to.equal('client went away');
    await stillServes();
  });

  it('lets go of each chunk once the caller has it, so memory does not grow with the table', async () => {
    setFlagsFromString('--expose-gc');
    const collectGarbage = runInNewContext('gc') as () => void;
    const plan = {
      ...buildPlan(registry, { sector: 'faulty', seed: 1, tables: [{ name: 'fine', rows: 300 }] }),
      chunk_rows: 10,
    };
    const delivered: WeakRef<ArrayBufferLike>[] = [];
    let retained = -1;
    for await (const bytes of pool.generate(plan, 'fine', { format: 'ndjson' })) {
      delivered.push(new WeakRef(bytes.buffer));
      if (delivered.length === 25) {
        await new Promise((resolve) => setImmediate(resolve)); // WeakRef targets are kept until the job ends
        collectGarbage();
        retained = delivered.slice(0, 20).filter((ref) => ref.deref() !== undefined).length;
      }
    }
    expect(delivered).to.have.length(30);
    expect(retained, 'chunks delivered earlier that are still reachable').to.equal(0);
  });

  it('with recycle, hands each chunk buffer back to a worker once the caller asks for the next, and the bytes stay the same', async () => {
    const plan = {
      ...buildPlan(registry, { sector: 'faulty', seed: 1, tables: [{ name: 'fine', rows: 6000 }] }),
      chunk_rows: 200,
    };
    const expected = await pool.bytes(plan, 'fine', { format: 'ndjson' });
    const copies: Buffer[] = [];
    const buffers: ArrayBufferLike[] = [];
    for await (const bytes of pool.generate(plan, 'fine', { format: 'ndjson', recycle: true })) {
      copies.push(Buffer.from(bytes));
      buffers.push(bytes.buffer);
    }
    expect(Buffer.concat(copies).equals(expected), 'the same bytes as without recycling').to.equal(true);
    // A buffer moved to a worker is detached here: every chunk's but those of the last ones, after which no
    // chunk was sent.
    expect(buffers.slice(0, 20).map((buffer) => buffer.byteLength)).to.deep.equal(new Array(20).fill(0));
  });
});

describe('warming the generation pool', function () {
  this.timeout(60_000);

  it('has every worker load each pack and generate its tables, one warm-up per worker', async () => {
    const registry = await loadPacks({
      builtinDir: '/nonexistent',
      extra: [fileURLToPath(new URL('./fixtures/warm-probe', import.meta.url))],
    });
    const pool = new GenerationPool(registry, { size: 2 });
    const channel = new BroadcastChannel('finsynth-warm-probe');
    const loaded = new Set<number>();
    const generated = new Set<number>();
    channel.onmessage = (event) => {
      const message = (event as { data: { loaded?: number; generated?: number } }).data;
      if (message.loaded !== undefined) loaded.add(message.loaded);
      if (message.generated !== undefined) generated.add(message.generated);
    };
    try {
      await pool.warm();
      // Broadcasts arrive in their own time: wait for both workers' (the test's time limit bounds it).
      while (loaded.size < 2 || generated.size < loaded.size) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(loaded.size).to.equal(2);
      expect([...generated].sort()).to.deep.equal([...loaded].sort());
    } finally {
      channel.close();
      await pool.close();
    }
  });

  it('is warmed by a service at its start, before any request, as a server is', async () => {
    const channel = new BroadcastChannel('finsynth-warm-probe');
    const generated = new Set<number>();
    channel.onmessage = (event) => {
      const message = (event as { data: { generated?: number } }).data;
      if (message.generated !== undefined) generated.add(message.generated);
    };
    // The test app skips the warm-up unless asked: a server (`finsynth serve`) has it by default.
    const app = await startTestApp({
      config: { packs: [fileURLToPath(new URL('./fixtures/warm-probe', import.meta.url))] },
      services: { warmPool: true },
    });
    try {
      while (generated.size < 2) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(generated.size).to.equal(2);
    } finally {
      channel.close();
      await app.close();
    }
  });

  it('fails when a pack fails while warming up, and the pool still serves', async () => {
    const registry = await loadPacks({ builtinDir: '/nonexistent', extra: [faultyPack] });
    const pool = new GenerationPool(registry, { size: 1, chunkTimeoutMs: 2_000 });
    try {
      const error = await pool.warm().then(
        () => expect.fail('the warm-up should have failed'),
        (caught: unknown) => caught as Error,
      );
      // The first of the pack's faulty tables to fail names the failure (a generator or a count).
      expect(error.message).to.match(/the (generator|count) broke on purpose/);
      const plan = buildPlan(registry, { sector: 'faulty', seed: 1, tables: [{ name: 'fine', rows: 10 }] });
      expect((await pool.bytes(plan, 'fine', { format: 'ndjson' })).toString().trim().split('\n')).to.have.length(10);
    } finally {
      await pool.close();
    }
  });
});

describe('the generation pool dropping tasks it no longer needs', function () {
  this.timeout(120_000);

  it('never replaces a worker nor hears an unknown answer, plan after plan of walks that count past their rows', async () => {
    const registry = await loadPacks({
      builtinDir: '/nonexistent',
      extra: [fileURLToPath(new URL('./fixtures/steady-counts', import.meta.url))],
    });
    const faults = new CountingUnexpectedErrors();
    const pool = new GenerationPool(registry, { size: 2, faults });
    const channel = new BroadcastChannel('finsynth-steady-counts');
    const loadedBy = new Set<number>();
    channel.onmessage = (event) => loadedBy.add((event as { data: { loaded: number } }).data.loaded);
    try {
      for (let seed = 1; seed <= 40; seed++) {
        // Each plan walks the parents anew (walks are kept by plan) and stops with count tasks in flight.
        const plan = await pool.plan({ sector: 'steady', seed, tables: [{ name: 'children', rows: 1000 + seed }] });
        const rows = (await pool.bytes(plan, 'children', { format: 'ndjson' })).toString().trim().split('\n');
        expect(rows).to.have.length(1000 + seed);
      }
      await pool.close(); // every answer is in: an unknown one would have been reported by now
      // Broadcasts arrive in their own time; a worker loads the pack once, so two loads are all there are.
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(faults.seen, 'errors the pool emitted').to.deep.equal([]);
      expect(loadedBy.size, 'threads that loaded the pack (a replaced worker loads it again)').to.equal(2);
    } finally {
      channel.close();
      await pool.close();
    }
  });
});
