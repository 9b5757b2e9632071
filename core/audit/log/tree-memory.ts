import type { SignedCheckpoint } from './checkpoint.js';
import { EMPTY_ROOT, type Hash } from './hashes.js';
import { isStoredLevel, nodesFromStored } from './stored-levels.js';
import { nodeKey, type NodeId } from './subtrees.js';
import {
  emptyHead,
  TreeStorageError,
  KEPT_CHECKPOINTS,
  type StoredLeaf,
  type TreeExtension,
  type TreeHead,
  type TreeStorage,
} from './tree-storage.js';

/**
 * The tree in this process's memory: for the memory store (tests), and for KurrentDB, which offers no
 * table beside its events; each instance then builds it from the events when it starts.
 */
export class MemoryTreeStorage implements TreeStorage {
  private current: TreeHead = emptyHead(EMPTY_ROOT);
  /** Node hashes by level, then index. */
  private levels: Hash[][] = [];
  private readonly indexOf = new Map<number, number>();
  private positions: number[] = [];
  private kept = new Map<number, SignedCheckpoint>();

  async head(): Promise<TreeHead> {
    return this.current;
  }

  nodes(ids: readonly NodeId[]): Promise<Map<string, Hash>> {
    return nodesFromStored(ids, (stored) => this.storedNodes(stored));
  }

  private async storedNodes(ids: readonly NodeId[]): Promise<Map<string, Hash>> {
    const found = new Map<string, Hash>();
    for (const id of ids) {
      const hash = this.levels[id.level]?.[id.index];
      if (!hash) throw new TreeStorageError(`the tree holds no node ${nodeKey(id)}`);
      found.set(nodeKey(id), hash);
    }
    return found;
  }

  async extend(expected: TreeHead, extension: TreeExtension): Promise<boolean> {
    if (expected.size !== this.current.size || !expected.root.equals(this.current.root)) return false;
    this.write(extension);
    return true;
  }

  async leaves(from: number, count: number): Promise<StoredLeaf[]> {
    const hashes = this.levels[0] ?? [];
    const leaves: StoredLeaf[] = [];
    for (let index = from; index < Math.min(from + count, this.current.size); index += 1)
      leaves.push({ index, position: this.positions[index], hash: hashes[index] });
    return leaves;
  }

  async leafIndexes(positions: readonly number[]): Promise<Map<number, number>> {
    const found = new Map<number, number>();
    for (const position of positions) {
      const index = this.indexOf.get(position);
      if (index !== undefined) found.set(position, index);
    }
    return found;
  }

  async replace(extension: TreeExtension, keep: (checkpoint: SignedCheckpoint) => boolean): Promise<void> {
    this.current = emptyHead(EMPTY_ROOT);
    this.levels = [];
    this.indexOf.clear();
    this.positions = [];
    this.write(extension);
    this.kept = new Map([...this.kept].filter(([, checkpoint]) => keep(checkpoint)));
  }

  async saveCheckpoint(checkpoint: SignedCheckpoint): Promise<void> {
    if (!this.kept.has(checkpoint.size)) this.kept.set(checkpoint.size, checkpoint);
    const sizes = [...this.kept.keys()].sort((a, b) => b - a);
    for (const size of sizes.slice(KEPT_CHECKPOINTS)) this.kept.delete(size);
  }

  async latestCheckpoint(): Promise<SignedCheckpoint | null> {
    return (await this.checkpoints()).at(-1) ?? null;
  }

  async checkpoints(): Promise<SignedCheckpoint[]> {
    return [...this.kept.values()].sort((a, b) => a.size - b.size);
  }

  private write({ head, positions, nodes }: TreeExtension): void {
    positions.forEach((position, i) => {
      this.indexOf.set(position, this.current.size + i);
      this.positions[this.current.size + i] = position;
    });
    for (const { level, index, hash } of nodes) if (isStoredLevel(level)) (this.levels[level] ??= [])[index] = hash;
    this.current = head;
  }
}
