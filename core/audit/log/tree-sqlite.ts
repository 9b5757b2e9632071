import type Database from 'better-sqlite3';
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
 * The leaves (with the position of their event), the complete subtrees above them, the head, and the signed
 * checkpoints, in the events' own SQLite file: a backup of the file holds the log and its tree together.
 */
const SCHEMA = `
  CREATE TABLE IF NOT EXISTS audit_log_leaves (
    leaf_index INTEGER PRIMARY KEY,
    position   INTEGER NOT NULL,
    hash       BLOB    NOT NULL
  ) STRICT;
  CREATE TABLE IF NOT EXISTS audit_log_nodes (
    level INTEGER NOT NULL,
    idx   INTEGER NOT NULL,
    hash  BLOB    NOT NULL,
    PRIMARY KEY (level, idx)
  ) STRICT, WITHOUT ROWID;
  CREATE TABLE IF NOT EXISTS audit_log_head (
    id            INTEGER PRIMARY KEY CHECK (id = 1),
    size          INTEGER NOT NULL,
    root          BLOB    NOT NULL,
    last_position INTEGER NOT NULL
  ) STRICT;
  CREATE TABLE IF NOT EXISTS audit_log_checkpoints (
    size      INTEGER PRIMARY KEY,
    origin    TEXT    NOT NULL,
    root      BLOB    NOT NULL,
    note      TEXT    NOT NULL,
    signed_at TEXT    NOT NULL
  ) STRICT;
`;

interface HeadRow {
  size: number;
  root: Buffer;
  last_position: number;
}

interface CheckpointRow {
  size: number;
  origin: string;
  root: Buffer;
  note: string;
}

const toCheckpoint = (row: CheckpointRow): SignedCheckpoint => ({ ...row });

export class SqliteTreeStorage implements TreeStorage {
  private readonly sql;
  private readonly extendTransaction;
  private readonly replaceTransaction;

  constructor(private readonly db: Database.Database) {
    db.exec(SCHEMA);
    this.sql = {
      head: db.prepare('SELECT size, root, last_position FROM audit_log_head WHERE id = 1'),
      setHead: db.prepare(
        'INSERT INTO audit_log_head (id, size, root, last_position) VALUES (1, ?, ?, ?) ' +
          'ON CONFLICT (id) DO UPDATE SET size = excluded.size, root = excluded.root, ' +
          'last_position = excluded.last_position',
      ),
      leaf: db.prepare('SELECT hash FROM audit_log_leaves WHERE leaf_index = ?').pluck(),
      node: db.prepare('SELECT hash FROM audit_log_nodes WHERE level = ? AND idx = ?').pluck(),
      leafRange: db
        .prepare(
          'SELECT leaf_index, position, hash FROM audit_log_leaves WHERE leaf_index >= ? ORDER BY leaf_index LIMIT ?',
        )
        .raw(),
      positionAt: db.prepare('SELECT position FROM audit_log_leaves WHERE leaf_index = ?').pluck(),
      insertLeaf: db.prepare('INSERT INTO audit_log_leaves (leaf_index, position, hash) VALUES (?, ?, ?)'),
      insertNode: db.prepare('INSERT INTO audit_log_nodes (level, idx, hash) VALUES (?, ?, ?)'),
      insertCheckpoint: db.prepare(
        'INSERT INTO audit_log_checkpoints (size, origin, root, note, signed_at) VALUES (?, ?, ?, ?, ?) ' +
          'ON CONFLICT (size) DO NOTHING',
      ),
      checkpoints: db.prepare('SELECT size, origin, root, note FROM audit_log_checkpoints ORDER BY size'),
      latestCheckpoint: db.prepare(
        'SELECT size, origin, root, note FROM audit_log_checkpoints ORDER BY size DESC LIMIT 1',
      ),
      deleteCheckpoint: db.prepare('DELETE FROM audit_log_checkpoints WHERE size = ?'),
      pruneCheckpoints: db.prepare(
        'DELETE FROM audit_log_checkpoints WHERE size < ' +
          '(SELECT min(size) FROM (SELECT size FROM audit_log_checkpoints ORDER BY size DESC LIMIT ?))',
      ),
    };
    this.extendTransaction = db.transaction((expected: TreeHead, extension: TreeExtension): boolean => {
      const stored = this.readHead();
      if (stored.size !== expected.size || !stored.root.equals(expected.root)) return false;
      this.write(stored.size, extension);
      return true;
    });
    this.replaceTransaction = db.transaction(
      (extension: TreeExtension, keep: (checkpoint: SignedCheckpoint) => boolean) => {
        db.exec('DELETE FROM audit_log_leaves; DELETE FROM audit_log_nodes;');
        this.write(0, extension);
        for (const row of this.sql.checkpoints.all() as CheckpointRow[])
          if (!keep(toCheckpoint(row))) this.sql.deleteCheckpoint.run(row.size);
      },
    );
  }

  async head(): Promise<TreeHead> {
    return this.readHead();
  }

  nodes(ids: readonly NodeId[]): Promise<Map<string, Hash>> {
    return nodesFromStored(ids, async (stored) => this.storedNodes(stored));
  }

  private storedNodes(ids: readonly NodeId[]): Map<string, Hash> {
    const found = new Map<string, Hash>();
    for (const id of ids) {
      const hash = (id.level === 0 ? this.sql.leaf.get(id.index) : this.sql.node.get(id.level, id.index)) as
        Buffer | undefined;
      if (!hash) throw new TreeStorageError(`the tree holds no node ${nodeKey(id)}`);
      found.set(nodeKey(id), hash);
    }
    return found;
  }

  async extend(expected: TreeHead, extension: TreeExtension): Promise<boolean> {
    // IMMEDIATE: the write lock is taken before the head is read, so no other connection extends in between.
    return this.extendTransaction.immediate(expected, extension);
  }

  async leaves(from: number, count: number): Promise<StoredLeaf[]> {
    return (this.sql.leafRange.all(from, count) as [number, number, Buffer][]).map(([index, position, hash]) => ({
      index,
      position,
      hash,
    }));
  }

  /**
   * Found without an index on position (one less b-tree written per event): SQLite numbers its events 1, 2,
   * 3…, so the leaf of position p is leaf p − 1, checked; else it is looked for by bisection, since positions
   * grow with leaf indexes.
   */
  async leafIndexes(positions: readonly number[]): Promise<Map<number, number>> {
    const size = this.readHead().size;
    const positionAt = (index: number) => this.sql.positionAt.get(index) as number;
    const found = new Map<number, number>();
    for (const position of positions) {
      if (position - 1 < size && position >= 1 && positionAt(position - 1) === position) {
        found.set(position, position - 1);
        continue;
      }
      let low = 0;
      let high = size - 1;
      while (low <= high) {
        const middle = Math.floor((low + high) / 2);
        const at = positionAt(middle);
        if (at === position) {
          found.set(position, middle);
          break;
        }
        if (at < position) low = middle + 1;
        else high = middle - 1;
      }
    }
    return found;
  }

  async replace(extension: TreeExtension, keep: (checkpoint: SignedCheckpoint) => boolean): Promise<void> {
    this.replaceTransaction.immediate(extension, keep);
  }

  async saveCheckpoint({ size, origin, root, note }: SignedCheckpoint): Promise<void> {
    this.sql.insertCheckpoint.run(size, origin, root, note, new Date().toISOString());
    this.sql.pruneCheckpoints.run(KEPT_CHECKPOINTS);
  }

  async latestCheckpoint(): Promise<SignedCheckpoint | null> {
    const row = this.sql.latestCheckpoint.get() as CheckpointRow | undefined;
    return row ? toCheckpoint(row) : null;
  }

  async checkpoints(): Promise<SignedCheckpoint[]> {
    return (this.sql.checkpoints.all() as CheckpointRow[]).map(toCheckpoint);
  }

  private readHead(): TreeHead {
    const row = this.sql.head.get() as HeadRow | undefined;
    return row ? { size: row.size, root: row.root, lastPosition: row.last_position } : emptyHead(EMPTY_ROOT);
  }

  private write(from: number, { head, positions, nodes }: TreeExtension): void {
    for (const { level, index, hash } of nodes) {
      if (level === 0) this.sql.insertLeaf.run(index, positions[index - from], hash);
      else if (isStoredLevel(level)) this.sql.insertNode.run(level, index, hash);
    }
    this.sql.setHead.run(head.size, head.root, head.lastPosition);
  }
}
