import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import type { EventStore } from '../../../../core/store/event-store.js';
import { MemoryEventStore } from '../../../../core/store/memory-store.js';
import { SqliteEventStore } from '../../../../core/store/sqlite-store.js';
import { PostgresEventStore } from '../../../../core/store/postgres-store.js';
import { appendLeaves, compactRoot, EMPTY_TREE } from '../../../../core/audit/log/compact-tree.js';
import { SqliteTreeStorage } from '../../../../core/audit/log/tree-sqlite.js';
import Database from 'better-sqlite3';
import { eventLeafHash } from '../../../../core/audit/log/hashes.js';
import { TreeIntegrator } from '../../../../core/audit/log/integrator.js';
import { consistencyRanges, inclusionRanges, proofHashes, proofNodeIds } from '../../../../core/audit/log/proofs.js';
import { nodeKey } from '../../../../core/audit/log/subtrees.js';
import { MemoryTreeStorage } from '../../../../core/audit/log/tree-memory.js';
import { treeStorageFor } from '../../../../core/audit/log/tree-storage-for-store.js';
import type { TreeStorage } from '../../../../core/audit/log/tree-storage.js';
import { verifyConsistency, verifyInclusion } from '../../../../core/audit/log/verify.js';
import { signCheckpoint } from '../../../../core/audit/log/checkpoint.js';
import { parseSignerKey, signerKeyFromSeed } from '../../../../core/audit/log/note.js';
import { dropPostgresSchema, requirePostgres, uniquePostgresSchema } from '../../../support/external-services.js';
import { path, mth } from './reference-tree.js';

interface Fixture {
  /** The store, and a second handle on the same events (another connection, another instance). */
  open(context: Mocha.Context): Promise<{ store: EventStore; other: EventStore }>;
  /** The tree storage of a store; for memory, the one tree both handles share. */
  storage(store: EventStore): TreeStorage;
  close(): Promise<void>;
}

let sqliteDir: string | undefined;
let postgres: { url: string; schema: string } | undefined;
const memoryTree = new MemoryTreeStorage();

const fixtures: Record<string, Fixture> = {
  memory: {
    async open() {
      const store = new MemoryEventStore();
      return { store, other: store };
    },
    storage: () => memoryTree,
    async close() {},
  },
  sqlite: {
    async open() {
      sqliteDir = mkdtempSync(join(tmpdir(), 'finsynth-tree-'));
      const file = join(sqliteDir, 'events.db');
      return { store: new SqliteEventStore(file), other: new SqliteEventStore(file) };
    },
    storage: treeStorageFor,
    async close() {
      if (sqliteDir) rmSync(sqliteDir, { recursive: true, force: true });
    },
  },
  postgres: {
    async open(context) {
      const url = await requirePostgres(context);
      postgres = { url, schema: uniquePostgresSchema('tree') };
      return {
        store: await PostgresEventStore.open(url, { schema: postgres.schema }),
        other: await PostgresEventStore.open(url, { schema: postgres.schema }),
      };
    },
    storage: treeStorageFor,
    async close() {
      if (postgres) await dropPostgresSchema(postgres.url, postgres.schema);
    },
  },
};

for (const [name, fixture] of Object.entries(fixtures)) {
  describe(`the audit log tree beside the events: ${name}`, function () {
    let store: EventStore;
    let other: EventStore;

    before(async function () {
      ({ store, other } = await fixture.open(this));
    });
    after(async () => {
      await store?.close();
      if (other !== store) await other?.close();
      await fixture.close();
    });

    /** Every event's leaf data, in global order: what the tree must be built from. */
    const eventHashes = async () => (await store.readAll()).map((event) => Buffer.from(event.hash, 'hex'));

    it('reads positions and hashes alone, as read-all has them', async () => {
      for (let i = 0; i < 5; i += 1) await store.append(`s-${randomUUID()}`, [{ type: 'Noted', data: { i } }]);
      const all = await store.readAll({ after: 1, maxCount: 3 });
      expect(await store.readAllHashes!({ after: 1, maxCount: 3 })).to.deep.equal(
        all.map(({ position, hash }) => ({ position, hash })),
      );
    });

    it('integrates every event in global order, in batches, to the root RFC 9162 gives', async () => {
      for (let i = 0; i < 6; i += 1)
        await store.append(`s-${randomUUID()}`, [
          { type: 'Noted', data: { i } },
          { type: 'Noted', data: { i, again: true } },
        ]);
      const head = await new TreeIntegrator(store, fixture.storage(store), 4).integrate();
      const data = await eventHashes();
      expect(head.size).to.equal(data.length);
      expect(head.root.toString('hex')).to.equal(mth(data).toString('hex'));
      expect(head.lastPosition).to.equal(await store.headPosition());
    });

    it('serves inclusion and consistency proofs from its stored subtrees, and knows each leaf by position', async () => {
      const storage = fixture.storage(store);
      const head = await new TreeIntegrator(store, storage).integrate();
      const events = await store.readAll();
      const data = events.map((event) => Buffer.from(event.hash, 'hex'));
      const indexes = await storage.leafIndexes(events.map((event) => event.position));
      expect([...indexes.values()]).to.deep.equal(events.map((_, i) => i));
      for (const size of [1, 5, head.size]) {
        for (const index of [0, size - 1, Math.floor(size / 2)]) {
          const ranges = inclusionRanges(index, size);
          const nodes = await storage.nodes(proofNodeIds(ranges));
          const proof = proofHashes(ranges, (id) => nodes.get(nodeKey(id))!);
          expect(proof.map((hash) => hash.toString('hex'))).to.deep.equal(
            path(index, data.slice(0, size)).map((hash) => hash.toString('hex')),
          );
          expect(
            verifyInclusion(index, size, eventLeafHash(events[index].hash), proof, mth(data.slice(0, size))),
          ).to.equal(true);
        }
        const ranges = consistencyRanges(size, head.size);
        const nodes = await storage.nodes(proofNodeIds(ranges));
        const proof = proofHashes(ranges, (id) => nodes.get(nodeKey(id))!);
        expect(verifyConsistency(size, head.size, proof, mth(data.slice(0, size)), head.root)).to.equal(true);
      }
    });

    it('is extended once when two instances integrate the same events at the same time', async () => {
      for (let i = 0; i < 40; i += 1) await other.append(`s-${randomUUID()}`, [{ type: 'Noted', data: { i } }]);
      const heads = await Promise.all([
        new TreeIntegrator(store, fixture.storage(store), 7).integrate(),
        new TreeIntegrator(other, fixture.storage(other), 5).integrate(),
      ]);
      const data = await eventHashes();
      const root = mth(data).toString('hex');
      const head = await fixture.storage(store).head();
      expect([head.size, head.root.toString('hex')]).to.deep.equal([data.length, root]);
      expect(heads.map((each) => each.size)).to.deep.equal([data.length, data.length]);
      const indexes = await fixture.storage(store).leafIndexes((await store.readAll()).map((event) => event.position));
      expect(indexes.size).to.equal(data.length);
    });

    it('keeps signed checkpoints, the latest by size, and drops those a rebuild does not keep', async () => {
      const storage = fixture.storage(store);
      const signer = parseSignerKey(signerKeyFromSeed('example.test/log', Buffer.alloc(32, 7)));
      const head = await storage.head();
      const first = signCheckpoint(
        { origin: signer.name, size: 3, root: mth((await eventHashes()).slice(0, 3)) },
        signer,
      );
      const second = signCheckpoint({ origin: signer.name, size: head.size, root: head.root }, signer);
      await storage.saveCheckpoint(second);
      await storage.saveCheckpoint(first);
      await storage.saveCheckpoint({ ...first, note: 'ignored: a size already kept' });
      expect((await storage.latestCheckpoint())?.note).to.equal(second.note);
      expect((await storage.checkpoints()).map((each) => each.note)).to.deep.equal([first.note, second.note]);
      // The rebuild writes the same tree again and keeps the checkpoints it is told to.
      const events = await store.readAll();
      const rebuilt = appendLeaves(
        EMPTY_TREE,
        events.map((event) => eventLeafHash(event.hash)),
      );
      await storage.replace(
        { head, positions: events.map((event) => event.position), nodes: rebuilt.nodes },
        (checkpoint) => checkpoint.size !== 3,
      );
      expect((await storage.checkpoints()).map((each) => each.size)).to.deep.equal([head.size]);
      expect(await storage.head()).to.deep.equal(head);
      const ranges = inclusionRanges(head.size - 1, head.size);
      const nodes = await storage.nodes(proofNodeIds(ranges));
      const proof = proofHashes(ranges, (id) => nodes.get(nodeKey(id))!);
      expect(verifyInclusion(head.size - 1, head.size, eventLeafHash(events.at(-1)!.hash), proof, head.root)).to.equal(
        true,
      );
    });
  });
}

describe('the sqlite tree: leaves found by position without an index on it', () => {
  it('finds a leaf whose position is not its index plus one, by bisection', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'finsynth-tree-positions-'));
    const db = new Database(join(dir, 'events.db'));
    try {
      const storage = new SqliteTreeStorage(db);
      // Positions with gaps, as a store that skipped some would give.
      const positions = [3, 4, 10, 11, 12, 40, 41, 99];
      const leaves = positions.map((position) => eventLeafHash(position.toString(16).padStart(64, '0')));
      const { tree, nodes } = appendLeaves(EMPTY_TREE, leaves);
      const head = { size: tree.size, root: compactRoot(tree), lastPosition: 99 };
      expect(await storage.extend(await storage.head(), { head, positions, nodes })).to.equal(true);
      const found = await storage.leafIndexes([4, 10, 12, 41, 99, 5, 100, 1]);
      expect(Object.fromEntries(found)).to.deep.equal({ 4: 1, 10: 2, 12: 4, 41: 6, 99: 7 });
    } finally {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
