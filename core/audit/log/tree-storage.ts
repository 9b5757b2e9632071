import type { SignedCheckpoint } from './checkpoint.js';
import type { StoredNode } from './compact-tree.js';
import type { Hash } from './hashes.js';
import type { NodeId } from './subtrees.js';

/** The tree as stored: its size and root, and the position of the last event it holds (0: none). */
export interface TreeHead {
  size: number;
  root: Hash;
  lastPosition: number;
}

/** A leaf as stored: its index, the position of its event, its hash. */
export interface StoredLeaf {
  index: number;
  position: number;
  hash: Hash;
}

/** The leaves and complete subtrees an append adds, and the head it leaves. */
export interface TreeExtension {
  head: TreeHead;
  /** The global position of each new leaf, in leaf order. */
  positions: readonly number[];
  /** Every complete subtree the new leaves completed; level 0 are the leaves themselves. */
  nodes: readonly StoredNode[];
}

/**
 * Where the log's Merkle tree is kept: beside the events, in the same database (sqlite, postgres) or in
 * memory (memory and KurrentDB stores, rebuilt from the events on start). Complete subtrees are stored by
 * (level, index), so that a proof reads O(log n) of them; they never change once written, except when the
 * whole tree is rebuilt.
 */
export interface TreeStorage {
  head(): Promise<TreeHead>;
  /** The hashes of these complete subtrees, by `nodeKey`; one that is not stored is an error. */
  nodes(ids: readonly NodeId[]): Promise<Map<string, Hash>>;
  /**
   * Appends in one transaction, only if the stored head is still `expected` (size and root): false, and
   * nothing written, if another instance extended the tree first.
   */
  extend(expected: TreeHead, extension: TreeExtension): Promise<boolean>;
  /** The stored leaves from index `from` on, at most `count`, in order: for the rebuild's comparison. */
  leaves(from: number, count: number): Promise<StoredLeaf[]>;
  /** The leaf index of each of these positions that the tree holds. */
  leafIndexes(positions: readonly number[]): Promise<Map<number, number>>;
  /** Replaces the whole tree (the rebuild), and drops the checkpoints not in `keep`, in one transaction. */
  replace(extension: TreeExtension, keep: (checkpoint: SignedCheckpoint) => boolean): Promise<void>;
  /**
   * Keeps a signed checkpoint, and the latest KEPT_CHECKPOINTS only (witnesses keep theirs); one of a size
   * already kept is left as it is.
   */
  saveCheckpoint(checkpoint: SignedCheckpoint): Promise<void>;
  /** The checkpoint of the largest size kept, or null. */
  latestCheckpoint(): Promise<SignedCheckpoint | null>;
  /** Every checkpoint kept, smallest size first. */
  checkpoints(): Promise<SignedCheckpoint[]>;
}

/** Checkpoints the store keeps: the latest, and enough before it to answer for the last minutes or hours. */
export const KEPT_CHECKPOINTS = 100;

/** The tree that holds no event. */
export const emptyHead = (root: Hash): TreeHead => ({ size: 0, root, lastPosition: 0 });

export class TreeStorageError extends Error {}
