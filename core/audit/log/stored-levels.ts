import { nodeHash, type Hash } from './hashes.js';
import { nodeKey, type NodeId } from './subtrees.js';

/**
 * Which complete subtrees are stored: the leaves, and the nodes of every fourth level. A node in between is
 * folded from the at most 16 stored nodes below it when a proof needs it, as tlog-tiles does with its tiles:
 * an append then writes about 1.07 rows per event instead of 2, and a proof still reads O(log n) rows.
 */
export const LEVEL_STRIDE = 4;

export const isStoredLevel = (level: number): boolean => level % LEVEL_STRIDE === 0;

/** The stored nodes a node is folded from: itself when its level is stored. */
function partsOf({ level, index }: NodeId): NodeId[] {
  const base = level - (level % LEVEL_STRIDE);
  const width = 2 ** (level - base);
  return Array.from({ length: width }, (_, i) => ({ level: base, index: index * width + i }));
}

/**
 * The hashes of any complete subtrees, by `nodeKey`, from a reader of the stored ones (which fails on one it
 * does not hold): each node between stored levels is folded from its parts, pairs hashed level by level.
 */
export async function nodesFromStored(
  ids: readonly NodeId[],
  readStored: (ids: readonly NodeId[]) => Promise<Map<string, Hash>>,
): Promise<Map<string, Hash>> {
  const wanted = new Map<string, NodeId[]>();
  for (const id of ids) wanted.set(nodeKey(id), isStoredLevel(id.level) ? [id] : partsOf(id));
  const parts = new Map<string, NodeId>();
  for (const each of wanted.values()) for (const part of each) parts.set(nodeKey(part), part);
  const stored = await readStored([...parts.values()]);
  const found = new Map<string, Hash>();
  for (const [key, each] of wanted) {
    let level = each.map((part) => stored.get(nodeKey(part))!);
    while (level.length > 1)
      level = Array.from({ length: level.length / 2 }, (_, i) => nodeHash(level[2 * i], level[2 * i + 1]));
    found.set(key, level[0]);
  }
  return found;
}
