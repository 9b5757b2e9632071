import { nodeHash, type Hash } from './hashes.js';
import { nodeKey, rangeNodes, splitPoint, type LeafRange, type NodeId } from './subtrees.js';

/**
 * Proofs as RFC 9162 section 2.1.3.1 (PATH) and 2.1.4.1 (PROOF, SUBPROOF) define them, generated in two
 * steps: which subtrees' hashes a proof is made of (pure geometry), then those hashes, each folded from the
 * complete subtrees the tree stores. A proof thus costs O(log n) stored nodes, read in one go.
 */

const isSize = (n: number): boolean => Number.isSafeInteger(n) && n >= 0;

/** PATH(index, D[size]): the subtrees beside the leaf's path to the root, the leaf's sibling first. */
export function inclusionRanges(index: number, size: number): LeafRange[] {
  if (!isSize(index) || !isSize(size) || index >= size)
    throw new RangeError(`no inclusion proof of leaf ${index} in a tree of ${size}`);
  const ranges: LeafRange[] = [];
  let begin = 0;
  let end = size;
  // Walked from the root down, so each sibling is put before the ones found above it.
  while (end - begin > 1) {
    const k = splitPoint(end - begin);
    if (index < begin + k) {
      ranges.unshift({ begin: begin + k, end });
      end = begin + k;
    } else {
      ranges.unshift({ begin, end: begin + k });
      begin += k;
    }
  }
  return ranges;
}

/** PROOF(from, D[to]): what shows that the tree of `to` leaves extends the tree of `from` leaves. */
export function consistencyRanges(from: number, to: number): LeafRange[] {
  if (!isSize(from) || !isSize(to) || from > to)
    throw new RangeError(`no consistency proof from a tree of ${from} to one of ${to}`);
  // Every tree extends the empty one, and every tree itself: nothing to show.
  if (from === 0 || from === to) return [];
  const ranges: LeafRange[] = [];
  let begin = 0;
  let end = to;
  let whole = true;
  while (from !== end) {
    const k = splitPoint(end - begin);
    if (from <= begin + k) {
      ranges.unshift({ begin: begin + k, end });
      end = begin + k;
    } else {
      ranges.unshift({ begin, end: begin + k });
      begin += k;
      whole = false;
    }
  }
  // SUBPROOF's m = n case: the old tree's own subtree, unless it is the whole old tree (which the verifier has).
  if (!whole) ranges.unshift({ begin, end });
  return ranges;
}

/** The stored complete subtrees a proof of these ranges reads, each once. */
export function proofNodeIds(ranges: readonly LeafRange[]): NodeId[] {
  const ids = new Map<string, NodeId>();
  for (const range of ranges) for (const id of rangeNodes(range)) ids.set(nodeKey(id), id);
  return [...ids.values()];
}

/** The proof's hashes: each range's MTH, folded from the complete subtrees `node` gives. */
export function proofHashes(ranges: readonly LeafRange[], node: (id: NodeId) => Hash): Hash[] {
  return ranges.map((range) => {
    const parts = rangeNodes(range).map(node);
    let hash = parts[parts.length - 1];
    for (let i = parts.length - 2; i >= 0; i -= 1) hash = nodeHash(parts[i], hash);
    return hash;
  });
}
