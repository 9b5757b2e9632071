import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signCheckpoint } from '../../../../core/audit/log/checkpoint.js';
import { appendLeaves, compactRoot, EMPTY_TREE } from '../../../../core/audit/log/compact-tree.js';
import { leafHash } from '../../../../core/audit/log/hashes.js';
import { parseSignerKey, signerKeyFromSeed, type NoteSigner } from '../../../../core/audit/log/note.js';
import { consistencyRanges, proofHashes } from '../../../../core/audit/log/proofs.js';
import { nodeKey } from '../../../../core/audit/log/subtrees.js';
import { witness, type LogSource } from '../../../../core/audit/log/witness.js';

/** A log of its own for the witness to watch: leaves from a seed, checkpoints signed by its key. */
function log(signer: NoteSigner, seed: string) {
  const leaves = Array.from({ length: 40 }, (_, i) => leafHash(Buffer.from(`${seed}-${i}`)));
  const { nodes } = appendLeaves(EMPTY_TREE, leaves);
  const stored = new Map(nodes.map((node) => [nodeKey(node), node.hash]));
  const root = (size: number) => compactRoot(appendLeaves(EMPTY_TREE, leaves.slice(0, size)).tree);
  let size = 0;
  const source: LogSource = {
    checkpoint: async () => signCheckpoint({ origin: signer.name, size, root: root(size) }, signer).note,
    publicKey: async () => signer.verifierKey,
    consistencyProof: async (from, to) =>
      proofHashes(consistencyRanges(from, to), (id) => stored.get(nodeKey(id))!).map((hash) => hash.toString('base64')),
  };
  return { source, grow: (to: number) => (size = to) };
}

describe('the witness (audit witness)', () => {
  let state: string;
  const signer = parseSignerKey(signerKeyFromSeed('example.test/audit', randomBytes(32)));
  beforeEach(async () => {
    state = await mkdtemp(join(tmpdir(), 'finsynth-witness-'));
  });
  afterEach(() => rm(state, { recursive: true, force: true }));

  it("trusts the log's key on first use, keeps it, and keeps each checkpoint that extends the last", async () => {
    const { source, grow } = log(signer, 'a');
    grow(5);
    const first = await witness({ client: source, stateDir: state });
    expect(first.holds).to.equal(true);
    expect(first.lines[0]).to.equal(
      `trusting the log's key on first use: ${signer.verifierKey} (pass --public-key to pin the key you were given)`,
    );
    expect((await readFile(join(state, 'public-key'), 'utf8')).trim()).to.equal(signer.verifierKey);
    grow(17);
    expect(await witness({ client: source, stateDir: state })).to.deep.equal({
      holds: true,
      lines: [`consistent: 5 → example.test/audit, 17 events, root ${compactRootOf('a', 17)}, kept`],
    });
    expect((await witness({ client: source, stateDir: state })).lines[0]).to.match(/^no new events: /);
    // An older checkpoint served again (a lagging replica): consistent, and the newer one stays kept.
    grow(9);
    const older = await witness({ client: source, stateDir: state });
    expect(older.holds).to.equal(true);
    expect(older.lines[0]).to.match(/^the log served an older checkpoint \(9 events, consistent with the 17 kept\)/);
    expect(await readFile(join(state, 'checkpoint'), 'utf8')).to.include('\n17\n');
  });

  it('reports another key, a forged signature, a fork and a rewrite, and keeps the checkpoint it had', async () => {
    const honest = log(signer, 'a');
    honest.grow(20);
    expect((await witness({ client: honest.source, stateDir: state, publicKey: signer.verifierKey })).holds).to.equal(
      true,
    );
    const kept = await readFile(join(state, 'checkpoint'), 'utf8');

    const other = parseSignerKey(signerKeyFromSeed('example.test/audit', randomBytes(32)));
    const pinned = await witness({ client: honest.source, stateDir: state, publicKey: other.verifierKey });
    expect([pinned.holds, pinned.lines[0].slice(0, 11)]).to.deep.equal([false, 'KEY        ']);
    const forged = log(other, 'a');
    forged.grow(20);
    const signature = await witness({ client: forged.source, stateDir: state });
    expect([signature.holds, signature.lines[0].slice(0, 11)]).to.deep.equal([false, 'SIGNATURE  ']);

    // The same key, another history: leaves from another seed.
    const rewritten = log(signer, 'b');
    rewritten.grow(20);
    const fork = await witness({ client: rewritten.source, stateDir: state });
    expect([fork.holds, fork.lines[0].slice(0, 11)]).to.deep.equal([false, 'FORK       ']);
    rewritten.grow(30);
    const rewrite = await witness({ client: rewritten.source, stateDir: state });
    expect([rewrite.holds, rewrite.lines[0].slice(0, 11)]).to.deep.equal([false, 'REWRITE    ']);
    rewritten.grow(10);
    const rolledBack = await witness({ client: rewritten.source, stateDir: state });
    expect([rolledBack.holds, rolledBack.lines[0].slice(0, 11)]).to.deep.equal([false, 'REWRITE    ']);
    expect(await readFile(join(state, 'checkpoint'), 'utf8')).to.equal(kept);
  });
});

function compactRootOf(seed: string, size: number): string {
  const leaves = Array.from({ length: size }, (_, i) => leafHash(Buffer.from(`${seed}-${i}`)));
  return compactRoot(appendLeaves(EMPTY_TREE, leaves).tree).toString('base64');
}
