/**
 * The geometry of an RFC 9162 tree, apart from any hash. Sizes and indexes are plain numbers (exact up to
 * 2^53), so arithmetic is used where bit operators would cut them to 32 bits.
 */

/** A complete subtree: the 2^level leaves that start at leaf `index * 2^level`. */
export interface NodeId {
  level: number;
  index: number;
}

/** Leaves [begin, end) of the tree. */
export interface LeafRange {
  begin: number;
  end: number;
}

/** The largest power of two below n (n ≥ 2): where RFC 9162 splits a tree of n leaves into its two subtrees. */
export function splitPoint(n: number): number {
  if (!(n >= 2)) throw new RangeError(`a tree of ${n} leaves has no split`);
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

/**
 * The complete subtrees that make up leaves [begin, end), left to right, each as large as its alignment
 * allows. For a range whose hash RFC 9162 defines (a whole tree, or one of the subtrees its recursion
 * splits off), folding their hashes from the right gives the range's MTH.
 */
export function rangeNodes({ begin, end }: LeafRange): NodeId[] {
  const nodes: NodeId[] = [];
  let at = begin;
  while (at < end) {
    let width = 1;
    let level = 0;
    while (at % (width * 2) === 0 && at + width * 2 <= end) {
      width *= 2;
      level += 1;
    }
    nodes.push({ level, index: at / width });
    at += width;
  }
  return nodes;
}

/** The complete subtrees whose hashes a tree of `size` leaves is folded from: one per bit set in `size`. */
export function frontierIds(size: number): NodeId[] {
  return rangeNodes({ begin: 0, end: size });
}

/** A key unique to a node, for maps and sets. */
export const nodeKey = ({ level, index }: NodeId): string => `${level}/${index}`;
