import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AuditLog } from '../../../../core/audit/log/audit-log.js';
import { openCheckpoint } from '../../../../core/audit/log/checkpoint.js';
import { appendLeaves, compactRoot, EMPTY_TREE } from '../../../../core/audit/log/compact-tree.js';
import { eventLeafHash } from '../../../../core/audit/log/hashes.js';
import { parseVerifierKey } from '../../../../core/audit/log/note.js';
import { MemoryTreeStorage } from '../../../../core/audit/log/tree-memory.js';
import { verifyConsistency, verifyInclusion } from '../../../../core/audit/log/verify.js';
import { MemoryEventStore } from '../../../../core/store/memory-store.js';

describe('the audit log service: integration and signed checkpoints', () => {
  let dir: string;
  let store: MemoryEventStore;
  let storage: MemoryTreeStorage;
  let log: AuditLog;
  const errors: unknown[] = [];

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'finsynth-audit-log-'));
    store = new MemoryEventStore();
    storage = new MemoryTreeStorage();
    errors.length = 0;
    log = new AuditLog({
      store,
      storage,
      keyFile: join(dir, 'audit-signing.key'),
      origin: 'example.test/finsynth/audit',
      // An hour: nothing is signed behind the test's back, only what it asks for.
      checkpointIntervalMs: 3_600_000,
      integrateIntervalMs: 3_600_000,
      onError: (error) => errors.push(error),
    });
  });
  afterEach(async () => {
    await log.stop();
    await rm(dir, { recursive: true, force: true });
  });

  const append = (n: number) =>
    Promise.all(Array.from({ length: n }, (_, i) => store.append(`s-${i}`, [{ type: 'Noted', data: { i } }])));

  it('starts by integrating the store and signing a checkpoint of it with the key it created', async () => {
    await append(5);
    expect(await log.start()).to.deep.equal({ keyCreated: true });
    const checkpoint = await log.latestCheckpoint();
    const opened = openCheckpoint(checkpoint!.note, parseVerifierKey(log.verifierKey));
    expect(opened.verified && [opened.checkpoint.origin, opened.checkpoint.size]).to.deep.equal([
      'example.test/finsynth/audit',
      5,
    ]);
    expect(log.takeKeyCreated()).to.equal(true);
    expect(log.takeKeyCreated()).to.equal(false);
  });

  it('signs a new checkpoint only when the tree grew, and each extends the one before', async () => {
    await log.start();
    const first = (await log.latestCheckpoint())!;
    expect(first.size).to.equal(0);
    await append(3);
    expect((await log.signCheckpoint()).size, 'not yet integrated').to.equal(0);
    await log.integrate();
    const second = await log.signCheckpoint();
    expect(second.size).to.equal(3);
    await append(4);
    await log.integrate();
    const third = await log.signCheckpoint();
    expect(third.size).to.equal(7);
    expect(await log.signCheckpoint(), 'nothing new').to.deep.equal(third);
    const proof = await log.consistencyProof(second.size, third.size);
    expect(verifyConsistency(second.size, third.size, proof, second.root, third.root)).to.equal(true);
    const events = await store.readAll();
    const inclusion = await log.inclusionProofs([0, 4, 6], third.size);
    expect(
      [0, 4, 6].map((index, i) =>
        verifyInclusion(index, third.size, eventLeafHash(events[index].hash), inclusion[i], third.root),
      ),
    ).to.deep.equal([true, true, true]);
  });

  it('refuses to sign a tree that no longer extends its last checkpoint', async () => {
    await append(4);
    await log.start();
    // An event rewritten in place, and the tree rebuilt from it: the root of the same size changes.
    store.tamper('s-1', 0, { i: 99 });
    const [event] = await store.readStream('s-1');
    const forged = { ...event, hash: 'f'.repeat(64) };
    const leaves = (await store.readAll()).map((each) =>
      eventLeafHash(each.id === forged.id ? forged.hash : each.hash),
    );
    const rebuilt = appendLeaves(EMPTY_TREE, leaves);
    const head = { size: 4, root: compactRoot(rebuilt.tree), lastPosition: 4 };
    await storage.replace({ head, positions: [1, 2, 3, 4], nodes: rebuilt.nodes }, () => true);
    await log.signCheckpoint().then(
      () => expect.fail('a contradicting checkpoint was signed'),
      (error: Error) => expect(error.message).to.include('no longer has the root of its signed checkpoint'),
    );
    await append(1);
    await log.integrate();
    await log.signCheckpoint().then(
      () => expect.fail('a checkpoint that does not extend the last was signed'),
      (error: Error) => expect(error.message).to.include('does not extend the signed checkpoint of 4'),
    );
    expect((await log.latestCheckpoint())!.size).to.equal(4);
  });

  it('waits for a checkpoint that covers a leaf, signing one as soon as the interval allows', async () => {
    await log.start();
    await append(2);
    const covering = await log.checkpointCovering(1, 100);
    // The start signed a moment ago and the interval is an hour: nothing covers leaf 1 yet.
    expect(covering).to.equal(null);
    const quick = new AuditLog({
      store,
      storage,
      keyFile: join(dir, 'audit-signing.key'),
      origin: undefined,
      checkpointIntervalMs: 1,
      integrateIntervalMs: 3_600_000,
      onError: (error) => errors.push(error),
    });
    await quick.start();
    await append(3);
    expect((await quick.checkpointCovering(4, 10_000))?.size).to.equal(5);
    await quick.stop();
  });
});
