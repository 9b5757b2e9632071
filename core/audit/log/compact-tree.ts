import { EMPTY_ROOT, nodeHash, type Hash } from './hashes.js';
import type { NodeId } from './subtrees.js';

/**
 * A tree as appending needs it: its size and the hashes of its frontier (the complete subtrees, one per bit
 * set in the size, largest first). Appending a leaf touches O(log n) of them and nothing else.
 */
export interface CompactTree {
  size: number;
  frontier: readonly Hash[];
}

/** A complete subtree's hash, as the tree stores it so that proofs are reads. */
export interface StoredNode extends NodeId {
  hash: Hash;
}

export const EMPTY_TREE: CompactTree = { size: 0, frontier: [] };

/**
 * Appends leaf hashes in order. Returns the new tree and every complete subtree the leaves completed, the
 * leaves themselves (level 0) included, in the order they completed.
 */
export function appendLeaves(tree: CompactTree, leaves: readonly Hash[]): { tree: CompactTree; nodes: StoredNode[] } {
  const frontier = [...tree.frontier];
  const levels = frontierLevels(tree.size);
  const nodes: StoredNode[] = [];
  let size = tree.size;
  for (const leaf of leaves) {
    nodes.push({ level: 0, index: size, hash: leaf });
    frontier.push(leaf);
    levels.push(0);
    size += 1;
    // Two subtrees of one level side by side complete the one above them.
    while (levels.length >= 2 && levels[levels.length - 1] === levels[levels.length - 2]) {
      const right = frontier.pop()!;
      const left = frontier.pop()!;
      levels.pop();
      const level = levels.pop()! + 1;
      const hash = nodeHash(left, right);
      frontier.push(hash);
      levels.push(level);
      nodes.push({ level, index: size / 2 ** level - 1, hash });
    }
  }
  return { tree: { size, frontier }, nodes };
}

/** MTH of the whole tree: the frontier folded from the right. */
export function compactRoot(tree: CompactTree): Hash {
  const { frontier } = tree;
  if (frontier.length === 0) return EMPTY_ROOT;
  let root = frontier[frontier.length - 1];
  for (let i = frontier.length - 2; i >= 0; i -= 1) root = nodeHash(frontier[i], root);
  return root;
}

/** The levels of a size's frontier, largest first: the bits set in it. */
function frontierLevels(size: number): number[] {
  const levels: number[] = [];
  for (let level = 0, rest = size; rest > 0; level += 1, rest = Math.floor(rest / 2)) {
    if (rest % 2 === 1) levels.push(level);
  }
  return levels.reverse();
}
