import { expect } from 'chai';
import fc from 'fast-check';
import { appendLeaves, compactRoot, EMPTY_TREE, type CompactTree } from '../../../../core/audit/log/compact-tree.js';
import { EMPTY_ROOT, leafHash, type Hash } from '../../../../core/audit/log/hashes.js';
import { consistencyRanges, inclusionRanges, proofHashes } from '../../../../core/audit/log/proofs.js';
import { nodeKey, type NodeId } from '../../../../core/audit/log/subtrees.js';
import { verifyConsistency, verifyInclusion } from '../../../../core/audit/log/verify.js';
import { mth, path, proof } from './reference-tree.js';

const hex = (hash: Hash): string => hash.toString('hex');
const unhex = (text: string): Buffer => Buffer.from(text, 'hex');

/**
 * The RFC 6962 test data that transparency-dev/merkle (and Trillian and Certificate Transparency before it)
 * publishes: eight leaf inputs, the root of each tree size, and proofs (leaf indexes 1-based there, 0-based here).
 */
const LEAF_INPUTS = [
  '',
  '00',
  '10',
  '2021',
  '3031',
  '40414243',
  '5051525354555657',
  '606162636465666768696a6b6c6d6e6f',
].map(unhex);
const ROOTS = [
  'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
  '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
  'fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125',
  'aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77',
  'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
  '4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4',
  '76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef',
  'ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c',
  '5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328',
];
const INCLUSION_VECTORS = [
  {
    index: 0,
    size: 8,
    proof: [
      '96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7',
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      '6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4',
    ],
  },
  {
    index: 5,
    size: 8,
    proof: [
      'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
      'ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0',
      'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
    ],
  },
  { index: 2, size: 3, proof: ['fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125'] },
  {
    index: 1,
    size: 5,
    proof: [
      '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
    ],
  },
];
const CONSISTENCY_VECTORS = [
  {
    from: 1,
    to: 8,
    proof: [
      '96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7',
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      '6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4',
    ],
  },
  {
    from: 6,
    to: 8,
    proof: [
      '0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a',
      'ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0',
      'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
    ],
  },
  {
    from: 2,
    to: 5,
    proof: [
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
    ],
  },
  {
    from: 6,
    to: 7,
    proof: [
      '0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a',
      'b08693ec2e721597130641e8211e7eedccb4c26413963eee6c1e2ed16ffb1a5f',
      'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
    ],
  },
];

/** A tree built leaf by leaf as the integrator builds it, with every node it stores kept for proofs. */
function built(leaves: readonly Hash[]): { trees: CompactTree[]; node: (id: NodeId) => Hash } {
  const stored = new Map<string, Hash>();
  const trees = [EMPTY_TREE];
  for (const leaf of leaves) {
    const { tree, nodes } = appendLeaves(trees.at(-1)!, [leaf]);
    for (const node of nodes) stored.set(nodeKey(node), node.hash);
    trees.push(tree);
  }
  return {
    trees,
    node: (id) => {
      const hash = stored.get(nodeKey(id));
      if (!hash) throw new Error(`node ${nodeKey(id)} was never stored`);
      return hash;
    },
  };
}

/** One bit flipped: a proof or root that must no longer verify. */
const flipped = (hash: Hash): Hash => {
  const copy = Buffer.from(hash);
  copy[0] ^= 0x08;
  return copy;
};

describe('the log Merkle tree (RFC 9162 section 2.1)', () => {
  describe('against the published RFC 6962 test data', () => {
    const leaves = LEAF_INPUTS.map(leafHash);
    const { trees, node } = built(leaves);

    it('has the published root for every size from 0 to 8, built one leaf at a time', () => {
      expect(hex(EMPTY_ROOT)).to.equal(ROOTS[0]);
      expect(trees.map((tree) => hex(compactRoot(tree)))).to.deep.equal(ROOTS);
    });

    it('generates and verifies the published inclusion proofs', () => {
      for (const vector of INCLUSION_VECTORS) {
        const generated = proofHashes(inclusionRanges(vector.index, vector.size), node).map(hex);
        expect(generated, `leaf ${vector.index} of ${vector.size}`).to.deep.equal(vector.proof);
        const root = unhex(ROOTS[vector.size]);
        expect(
          verifyInclusion(vector.index, vector.size, leaves[vector.index], vector.proof.map(unhex), root),
        ).to.equal(true);
      }
    });

    it('generates and verifies the published consistency proofs', () => {
      for (const vector of CONSISTENCY_VECTORS) {
        const generated = proofHashes(consistencyRanges(vector.from, vector.to), node).map(hex);
        expect(generated, `${vector.from} to ${vector.to}`).to.deep.equal(vector.proof);
        const [fromRoot, toRoot] = [unhex(ROOTS[vector.from]), unhex(ROOTS[vector.to])];
        expect(verifyConsistency(vector.from, vector.to, vector.proof.map(unhex), fromRoot, toRoot)).to.equal(true);
      }
    });

    it('refuses every corrupted inclusion proof: wrong leaf, index, size, root; a bit, an element added or removed', () => {
      for (const { index, size, proof: hexProof } of INCLUSION_VECTORS) {
        const proof = hexProof.map(unhex);
        const root = unhex(ROOTS[size]);
        const leaf = leaves[index];
        const refused: [string, boolean][] = [
          ['index - 1', verifyInclusion(index - 1, size, leaf, proof, root)],
          ['index + 1', verifyInclusion(index + 1, size, leaf, proof, root)],
          ['index ^ 2', verifyInclusion(index ^ 2, size, leaf, proof, root)],
          ['size * 2', verifyInclusion(index, size * 2, leaf, proof, root)],
          ['size / 2', verifyInclusion(index, Math.floor(size / 2), leaf, proof, root)],
          ['another leaf', verifyInclusion(index, size, leafHash(Buffer.from('x')), proof, root)],
          ['the empty root', verifyInclusion(index, size, leaf, proof, EMPTY_ROOT)],
          ['a flipped root', verifyInclusion(index, size, leaf, proof, flipped(root))],
          ['trailing root', verifyInclusion(index, size, leaf, [...proof, root], root)],
          ['preceding root', verifyInclusion(index, size, leaf, [root, ...proof], root)],
          ['removed element', verifyInclusion(index, size, leaf, proof.slice(0, -1), root)],
          ['an element too short', verifyInclusion(index, size, leaf, [...proof.slice(0, -1), Buffer.alloc(31)], root)],
          ...proof.map((_, i): [string, boolean] => [
            `flipped element ${i}`,
            verifyInclusion(
              index,
              size,
              leaf,
              proof.map((hash, j) => (i === j ? flipped(hash) : hash)),
              root,
            ),
          ]),
        ];
        expect(
          refused.filter(([, verified]) => verified).map(([what]) => what),
          `${index} of ${size}`,
        ).to.deep.equal([]);
      }
    });

    it('refuses every corrupted consistency proof: wrong sizes, roots swapped, a bit, an element added or removed', () => {
      for (const { from, to, proof: hexProof } of CONSISTENCY_VECTORS) {
        const proof = hexProof.map(unhex);
        const [fromRoot, toRoot] = [unhex(ROOTS[from]), unhex(ROOTS[to])];
        const refused: [string, boolean][] = [
          ['from - 1', verifyConsistency(from - 1, to, proof, fromRoot, toRoot)],
          ['from + 1', verifyConsistency(from + 1, to, proof, fromRoot, toRoot)],
          ['from ^ 2', verifyConsistency(from ^ 2, to, proof, fromRoot, toRoot)],
          ['to * 2', verifyConsistency(from, to * 2, proof, fromRoot, toRoot)],
          ['to / 2', verifyConsistency(from, Math.floor(to / 2), proof, fromRoot, toRoot)],
          ['roots swapped', verifyConsistency(from, to, proof, toRoot, fromRoot)],
          ['a flipped old root', verifyConsistency(from, to, proof, flipped(fromRoot), toRoot)],
          ['a flipped new root', verifyConsistency(from, to, proof, fromRoot, flipped(toRoot))],
          ['empty proof', verifyConsistency(from, to, [], fromRoot, toRoot)],
          ['trailing element', verifyConsistency(from, to, [...proof, toRoot], fromRoot, toRoot)],
          ['preceding element', verifyConsistency(from, to, [proof[0], ...proof], fromRoot, toRoot)],
          ['removed element', verifyConsistency(from, to, proof.slice(0, -1), fromRoot, toRoot)],
          ...proof.map((_, i): [string, boolean] => [
            `flipped element ${i}`,
            verifyConsistency(
              from,
              to,
              proof.map((hash, j) => (i === j ? flipped(hash) : hash)),
              fromRoot,
              toRoot,
            ),
          ]),
        ];
        expect(
          refused.filter(([, verified]) => verified).map(([what]) => what),
          `${from} to ${to}`,
        ).to.deep.equal([]);
      }
    });

    it('holds the trivial cases: the empty tree and a tree itself', () => {
      const root = unhex(ROOTS[5]);
      expect(verifyConsistency(0, 5, [], EMPTY_ROOT, root)).to.equal(true);
      expect(verifyConsistency(5, 5, [], root, root)).to.equal(true);
      expect(verifyConsistency(5, 5, [], root, flipped(root))).to.equal(false);
      expect(verifyConsistency(5, 4, [], root, root)).to.equal(false);
      expect(verifyInclusion(0, 1, leaves[0], [], unhex(ROOTS[1]))).to.equal(true);
      expect(verifyInclusion(0, 0, leaves[0], [], EMPTY_ROOT)).to.equal(false);
    });
  });

  describe('against RFC 9162 transcribed naively (random trees)', () => {
    const trees = fc.array(fc.uint8Array({ maxLength: 12 }), { minLength: 1, maxLength: 70 });

    it('has the same root at every size, built leaf by leaf or in batches', () => {
      fc.assert(
        fc.property(trees, fc.integer({ min: 1, max: 9 }), (data, batch) => {
          const leaves = data.map(leafHash);
          const { trees: grown } = built(leaves);
          grown.forEach((tree, size) => expect(hex(compactRoot(tree))).to.equal(hex(mth(data.slice(0, size)))));
          let tree = EMPTY_TREE;
          for (let at = 0; at < leaves.length; at += batch)
            tree = appendLeaves(tree, leaves.slice(at, at + batch)).tree;
          expect(hex(compactRoot(tree))).to.equal(hex(mth(data)));
        }),
      );
    });

    it('generates PATH for every leaf of every size, and it verifies', () => {
      fc.assert(
        fc.property(trees, (data) => {
          const leaves = data.map(leafHash);
          const { node } = built(leaves);
          for (let size = 1; size <= data.length; size += 1) {
            const root = mth(data.slice(0, size));
            for (let index = 0; index < size; index += 1) {
              const generated = proofHashes(inclusionRanges(index, size), node);
              expect(generated.map(hex)).to.deep.equal(path(index, data.slice(0, size)).map(hex));
              expect(verifyInclusion(index, size, leaves[index], generated, root)).to.equal(true);
            }
          }
        }),
        { numRuns: 40 },
      );
    });

    it('generates PROOF between every two sizes, and it verifies', () => {
      fc.assert(
        fc.property(trees, (data) => {
          const { node } = built(data.map(leafHash));
          for (let to = 1; to <= data.length; to += 1) {
            const toRoot = mth(data.slice(0, to));
            for (let from = 1; from <= to; from += 1) {
              const generated = proofHashes(consistencyRanges(from, to), node);
              expect(generated.map(hex), `${from} to ${to}`).to.deep.equal(proof(from, data.slice(0, to)).map(hex));
              expect(verifyConsistency(from, to, generated, mth(data.slice(0, from)), toRoot)).to.equal(true);
            }
          }
        }),
        { numRuns: 40 },
      );
    });

    it('refuses a proof of one tree against the root of a tree that differs in one leaf', () => {
      fc.assert(
        fc.property(trees, fc.nat(), fc.uint8Array({ minLength: 1, maxLength: 4 }), (data, pick, extra) => {
          const changed = pick % data.length;
          const other = data.map((leaf, i) => (i === changed ? Buffer.concat([leaf, extra]) : leaf));
          const { node } = built(data.map(leafHash));
          const size = data.length;
          const otherRoot = mth(other);
          for (let from = Math.max(1, changed + 1); from <= size; from += 1) {
            const generated = proofHashes(consistencyRanges(from, size), node);
            expect(verifyConsistency(from, size, generated, mth(data.slice(0, from)), otherRoot)).to.equal(false);
          }
          const inclusion = proofHashes(inclusionRanges(changed, size), node);
          expect(verifyInclusion(changed, size, leafHash(data[changed]), inclusion, otherRoot)).to.equal(false);
        }),
      );
    });
  });
});
