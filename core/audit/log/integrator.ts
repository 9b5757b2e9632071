import type { EventHash, EventStore } from '../../store/event-store.js';
import { appendLeaves, compactRoot, type CompactTree } from './compact-tree.js';
import { eventLeafHash } from './hashes.js';
import { frontierIds, nodeKey } from './subtrees.js';
import { TreeStorageError, type TreeHead, type TreeStorage } from './tree-storage.js';

/** Events integrated per transaction: large enough that a commit is shared by many, small enough to stay short. */
export const INTEGRATION_BATCH = 10_000;

/** The events after a position, hash and position alone when the store can read only those. */
export async function readEventHashes(store: EventStore, after: number, maxCount: number): Promise<EventHash[]> {
  if (store.readAllHashes) return store.readAllHashes({ after, maxCount });
  return (await store.readAll({ after, maxCount })).map(({ position, hash }) => ({ position, hash }));
}

/**
 * The integrate step (as Tessera's): after events commit, they are appended to the tree in global order,
 * in batches, each batch one transaction that is conditional on the head it read. Appends never wait for
 * the tree, and several instances may integrate at once: one extends the tree, the others find it extended
 * and go on from there. The frontier is kept between batches while no one else moves the head.
 */
export class TreeIntegrator {
  private known: { head: TreeHead; tree: CompactTree } | null = null;
  private running: Promise<TreeHead> | null = null;

  constructor(
    private readonly store: EventStore,
    private readonly storage: TreeStorage,
    private readonly batchSize = INTEGRATION_BATCH,
  ) {}

  /** Integrates every event the store has after the tree; resolves with the head it leaves. One pass at a time. */
  integrate(): Promise<TreeHead> {
    this.running ??= this.pass().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async pass(): Promise<TreeHead> {
    for (;;) {
      const head = await this.storage.head();
      const tree = await this.treeAt(head);
      const events = await readEventHashes(this.store, head.lastPosition, this.batchSize);
      if (events.length === 0) return head;
      const appended = appendLeaves(
        tree,
        events.map((event) => eventLeafHash(event.hash)),
      );
      const next = {
        size: appended.tree.size,
        root: compactRoot(appended.tree),
        lastPosition: events.at(-1)!.position,
      };
      const extended = await this.storage.extend(head, {
        head: next,
        positions: events.map((event) => event.position),
        nodes: appended.nodes,
      });
      this.known = extended ? { head: next, tree: appended.tree } : null;
      if (extended && events.length < this.batchSize) return next;
    }
  }

  /** The frontier of the stored head: the one kept, or read back (O(log n) nodes) and checked against the root. */
  private async treeAt(head: TreeHead): Promise<CompactTree> {
    const known = this.known;
    if (known && known.head.size === head.size && known.head.root.equals(head.root)) return known.tree;
    const ids = frontierIds(head.size);
    const nodes = await this.storage.nodes(ids);
    const tree = { size: head.size, frontier: ids.map((id) => nodes.get(nodeKey(id))!) };
    if (!compactRoot(tree).equals(head.root))
      throw new TreeStorageError(
        `the stored tree of ${head.size} leaves does not hash to its root: ` +
          'check and rebuild it with `finsynth audit rebuild-log`',
      );
    return tree;
  }
}
