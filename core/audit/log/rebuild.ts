import type { EventStore } from '../../store/event-store.js';
import type { SignedCheckpoint } from './checkpoint.js';
import { appendLeaves, compactRoot, EMPTY_TREE, type StoredNode } from './compact-tree.js';
import { eventLeafHash } from './hashes.js';
import { INTEGRATION_BATCH, readEventHashes } from './integrator.js';
import type { TreeStorage } from './tree-storage.js';

/** How many differing leaves the report names; the rest are counted. */
const NAMED_DIFFERENCES = 20;

export interface LeafDifference {
  leaf_index: number;
  /** The position of the event the leaf should be; null for a stored leaf no event stands for any more. */
  position: number | null;
  /** What the stored tree holds there (base64), or null when it holds no leaf there. */
  stored: string | null;
  /** What the event gives (base64), or null when there is no event there any more. */
  computed: string | null;
}

export interface ContradictedCheckpoint {
  size: number;
  kept: string;
  /** The root the events give at that size (base64); null when the store holds fewer events than that now. */
  rebuilt: string | null;
}

export interface RebuildReport {
  events: number;
  /** The tree the events give. */
  size: number;
  root: string;
  /** The tree that was stored. */
  stored: { size: number; root: string };
  /** True when the stored tree is exactly the one the events give. */
  matches: boolean;
  differences: LeafDifference[];
  /** All differing leaves, of which `differences` names the first. */
  differing: number;
  /** Signed checkpoints that the events no longer agree with: the history they signed was changed. */
  contradicted: ContradictedCheckpoint[];
  /** Whether the stored tree was replaced by the one the events give. */
  rebuilt: boolean;
}

export interface RebuildOptions {
  /** Check only: compare and report, write nothing. */
  check?: boolean;
  /**
   * Rebuild even when signed checkpoints contradict the events, dropping those checkpoints. This makes the
   * log sign a history that contradicts what it signed before: every witness that kept one will say so.
   */
  force?: boolean;
}

/**
 * `finsynth audit rebuild-log`: the tree built again from every event in global order, compared leaf by leaf
 * with the stored one and with every signed checkpoint, then written in place of the stored one (one
 * transaction) unless a signed checkpoint contradicts the events: that means the events were changed after
 * they were logged, and rebuilding would only make the log sign the changed history (`force` does it
 * anyway). The whole tree is held in memory while it is rebuilt: a few hundred bytes per event.
 */
export async function rebuildLog(
  store: EventStore,
  storage: TreeStorage,
  options: RebuildOptions = {},
): Promise<RebuildReport> {
  const checkpoints = await storage.checkpoints();
  const storedHead = await storage.head();
  const rootsAt = new Map<number, Buffer>();
  const wanted = new Set(checkpoints.map((checkpoint) => checkpoint.size));
  // The checkpoints' sizes in order, and the next one the appends have to stop at.
  const stops = [...wanted].sort((a, b) => a - b);
  let stop = 0;
  const differences: LeafDifference[] = [];
  let differing = 0;
  const note = (difference: LeafDifference) => {
    differing += 1;
    if (differences.length < NAMED_DIFFERENCES) differences.push(difference);
  };
  let tree = EMPTY_TREE;
  const positions: number[] = [];
  const nodes: StoredNode[] = [];
  let lastPosition = 0;
  if (wanted.has(0)) rootsAt.set(0, compactRoot(tree));
  for (;;) {
    const events = await readEventHashes(store, lastPosition, INTEGRATION_BATCH);
    if (events.length === 0) break;
    const stored = await storage.leaves(tree.size, events.length);
    const leaves = events.map((event) => eventLeafHash(event.hash));
    events.forEach((event, i) => {
      const leaf = stored[i];
      if (!leaf || leaf.index !== tree.size + i || leaf.position !== event.position || !leaf.hash.equals(leaves[i]))
        note({
          leaf_index: tree.size + i,
          position: event.position,
          stored: leaf && leaf.index === tree.size + i ? leaf.hash.toString('base64') : null,
          computed: leaves[i].toString('base64'),
        });
    });
    // Appended up to each checkpoint's size in turn, so that the root the events give there is known.
    let at = 0;
    while (at < leaves.length) {
      while (stop < stops.length && stops[stop] <= tree.size) stop += 1;
      const take = Math.min(leaves.length - at, stop < stops.length ? stops[stop] - tree.size : Infinity);
      const appended = appendLeaves(tree, leaves.slice(at, at + take));
      tree = appended.tree;
      if (!options.check) for (const node of appended.nodes) nodes.push(node);
      at += take;
      if (wanted.has(tree.size)) rootsAt.set(tree.size, compactRoot(tree));
    }
    for (const event of events) positions.push(event.position);
    lastPosition = events.at(-1)!.position;
  }
  // Leaves the stored tree holds beyond the events: events that are gone.
  for (const leaf of await storage.leaves(tree.size, Math.max(0, storedHead.size - tree.size)))
    note({ leaf_index: leaf.index, position: null, stored: leaf.hash.toString('base64'), computed: null });
  const root = compactRoot(tree);
  const contradicted = checkpoints
    .filter((checkpoint) => !rootsAt.get(checkpoint.size)?.equals(checkpoint.root))
    .map((checkpoint) => ({
      size: checkpoint.size,
      kept: checkpoint.root.toString('base64'),
      rebuilt: rootsAt.get(checkpoint.size)?.toString('base64') ?? null,
    }));
  const matches = differing === 0 && storedHead.size === tree.size && storedHead.root.equals(root);
  const rebuilt = !options.check && !matches && (contradicted.length === 0 || options.force === true);
  if (rebuilt) {
    const keep = (checkpoint: SignedCheckpoint) => rootsAt.get(checkpoint.size)?.equals(checkpoint.root) === true;
    await storage.replace({ head: { size: tree.size, root, lastPosition }, positions, nodes }, keep);
  }
  return {
    events: tree.size,
    size: tree.size,
    root: root.toString('base64'),
    stored: { size: storedHead.size, root: storedHead.root.toString('base64') },
    matches,
    differences,
    differing,
    contradicted,
    rebuilt,
  };
}
