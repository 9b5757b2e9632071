import type pg from 'pg';
import { inTransaction, migrationOnce } from '../../store/postgres-transaction.js';
import type { SignedCheckpoint } from './checkpoint.js';
import { EMPTY_ROOT, type Hash } from './hashes.js';
import { isStoredLevel, nodesFromStored } from './stored-levels.js';
import { nodeKey, type NodeId } from './subtrees.js';
import {
  TreeStorageError,
  KEPT_CHECKPOINTS,
  type StoredLeaf,
  type TreeExtension,
  type TreeHead,
  type TreeStorage,
} from './tree-storage.js';

/** Rows written per statement: arrays of this many values stay well inside a message PostgreSQL takes at once. */
const CHUNK = 20_000;

/** Thrown inside an extension's transaction to roll it back when another instance extended the tree first. */
class Overtaken extends Error {}

/**
 * The tree in the events' schema. Instances of a fleet share it: an extension is one transaction that
 * first moves the head from the size and root it read (`WHERE size = … AND root = …`), so that of two
 * instances integrating the same events one extends the tree and the other, finding the head moved,
 * writes nothing.
 */
export class PostgresTreeStorage implements TreeStorage {
  private readonly migrate;
  private readonly table;

  constructor(
    private readonly pool: pg.Pool,
    schema: string,
  ) {
    this.table = {
      leaves: `${schema}.audit_log_leaves`,
      nodes: `${schema}.audit_log_nodes`,
      head: `${schema}.audit_log_head`,
      checkpoints: `${schema}.audit_log_checkpoints`,
    };
    const { leaves, nodes, head, checkpoints } = this.table;
    this.migrate = migrationOnce(pool, async (client) => {
      await client.query(`
        CREATE TABLE IF NOT EXISTS ${leaves} (
          leaf_index bigint PRIMARY KEY,
          position   bigint NOT NULL UNIQUE,
          hash       bytea  NOT NULL
        )`);
      await client.query(`
        CREATE TABLE IF NOT EXISTS ${nodes} (
          level smallint NOT NULL,
          idx   bigint   NOT NULL,
          hash  bytea    NOT NULL,
          PRIMARY KEY (level, idx)
        )`);
      await client.query(`
        CREATE TABLE IF NOT EXISTS ${head} (
          id            boolean PRIMARY KEY DEFAULT true CHECK (id),
          size          bigint  NOT NULL,
          root          bytea   NOT NULL,
          last_position bigint  NOT NULL
        )`);
      await client.query(`INSERT INTO ${head} (size, root, last_position) VALUES (0, $1, 0) ON CONFLICT DO NOTHING`, [
        EMPTY_ROOT,
      ]);
      await client.query(`
        CREATE TABLE IF NOT EXISTS ${checkpoints} (
          size      bigint      PRIMARY KEY,
          origin    text        NOT NULL,
          root      bytea       NOT NULL,
          note      text        NOT NULL,
          signed_at timestamptz NOT NULL DEFAULT now()
        )`);
    });
  }

  async head(): Promise<TreeHead> {
    await this.migrate();
    const { rows } = await this.pool.query<{ size: string; root: Buffer; last_position: string }>(
      `SELECT size, root, last_position FROM ${this.table.head}`,
    );
    return { size: Number(rows[0].size), root: rows[0].root, lastPosition: Number(rows[0].last_position) };
  }

  nodes(ids: readonly NodeId[]): Promise<Map<string, Hash>> {
    return nodesFromStored(ids, (stored) => this.storedNodes(stored));
  }

  private async storedNodes(ids: readonly NodeId[]): Promise<Map<string, Hash>> {
    await this.migrate();
    const found = new Map<string, Hash>();
    const leaves = ids.filter((id) => id.level === 0).map((id) => id.index);
    const inner = ids.filter((id) => id.level > 0);
    for (let at = 0; at < leaves.length; at += CHUNK) {
      const { rows } = await this.pool.query<{ leaf_index: string; hash: Buffer }>(
        `SELECT leaf_index, hash FROM ${this.table.leaves} WHERE leaf_index = ANY($1::bigint[])`,
        [leaves.slice(at, at + CHUNK)],
      );
      for (const row of rows) found.set(nodeKey({ level: 0, index: Number(row.leaf_index) }), row.hash);
    }
    for (let at = 0; at < inner.length; at += CHUNK) {
      const chunk = inner.slice(at, at + CHUNK);
      const { rows } = await this.pool.query<{ level: number; idx: string; hash: Buffer }>(
        `SELECT n.level, n.idx, n.hash FROM ${this.table.nodes} n ` +
          'JOIN unnest($1::smallint[], $2::bigint[]) AS wanted(level, idx) USING (level, idx)',
        [chunk.map((id) => id.level), chunk.map((id) => id.index)],
      );
      for (const row of rows) found.set(nodeKey({ level: row.level, index: Number(row.idx) }), row.hash);
    }
    const missing = ids.find((id) => !found.has(nodeKey(id)));
    if (missing) throw new TreeStorageError(`the tree holds no node ${nodeKey(missing)}`);
    return found;
  }

  async extend(expected: TreeHead, extension: TreeExtension): Promise<boolean> {
    await this.migrate();
    try {
      await inTransaction(this.pool, async (client) => {
        // The head first: its row lock makes a second extender wait here, then find the head moved.
        const moved = await client.query(
          `UPDATE ${this.table.head} SET size = $3, root = $4, last_position = $5 WHERE size = $1 AND root = $2`,
          [expected.size, expected.root, extension.head.size, extension.head.root, extension.head.lastPosition],
        );
        if (moved.rowCount !== 1) throw new Overtaken();
        await this.write(client, expected.size, extension);
      });
      return true;
    } catch (error) {
      if (error instanceof Overtaken) return false;
      throw error;
    }
  }

  async leaves(from: number, count: number): Promise<StoredLeaf[]> {
    await this.migrate();
    const { rows } = await this.pool.query<[string, string, Buffer]>({
      text:
        `SELECT leaf_index, position, hash FROM ${this.table.leaves} ` +
        'WHERE leaf_index >= $1 ORDER BY leaf_index LIMIT $2',
      values: [from, count],
      rowMode: 'array',
    });
    return rows.map(([index, position, hash]) => ({ index: Number(index), position: Number(position), hash }));
  }

  async leafIndexes(positions: readonly number[]): Promise<Map<number, number>> {
    await this.migrate();
    const found = new Map<number, number>();
    for (let at = 0; at < positions.length; at += CHUNK) {
      const { rows } = await this.pool.query<{ position: string; leaf_index: string }>(
        `SELECT position, leaf_index FROM ${this.table.leaves} WHERE position = ANY($1::bigint[])`,
        [positions.slice(at, at + CHUNK)],
      );
      for (const row of rows) found.set(Number(row.position), Number(row.leaf_index));
    }
    return found;
  }

  async replace(extension: TreeExtension, keep: (checkpoint: SignedCheckpoint) => boolean): Promise<void> {
    await this.migrate();
    await inTransaction(this.pool, async (client) => {
      await client.query(`SELECT 1 FROM ${this.table.head} FOR UPDATE`);
      await client.query(`DELETE FROM ${this.table.leaves}`);
      await client.query(`DELETE FROM ${this.table.nodes}`);
      await this.write(client, 0, extension);
      await client.query(`UPDATE ${this.table.head} SET size = $1, root = $2, last_position = $3`, [
        extension.head.size,
        extension.head.root,
        extension.head.lastPosition,
      ]);
      const { rows } = await client.query<CheckpointRow>(
        `SELECT size, origin, root, note FROM ${this.table.checkpoints}`,
      );
      const dropped = rows.map(toCheckpoint).filter((checkpoint) => !keep(checkpoint));
      if (dropped.length > 0)
        await client.query(`DELETE FROM ${this.table.checkpoints} WHERE size = ANY($1::bigint[])`, [
          dropped.map((checkpoint) => checkpoint.size),
        ]);
    });
  }

  async saveCheckpoint({ size, origin, root, note }: SignedCheckpoint): Promise<void> {
    await this.migrate();
    await this.pool.query(
      `INSERT INTO ${this.table.checkpoints} (size, origin, root, note) VALUES ($1, $2, $3, $4) ` +
        'ON CONFLICT (size) DO NOTHING',
      [size, origin, root, note],
    );
    await this.pool.query(
      `DELETE FROM ${this.table.checkpoints} WHERE size < ` +
        `(SELECT min(size) FROM (SELECT size FROM ${this.table.checkpoints} ORDER BY size DESC LIMIT $1) AS latest)`,
      [KEPT_CHECKPOINTS],
    );
  }

  async latestCheckpoint(): Promise<SignedCheckpoint | null> {
    await this.migrate();
    const { rows } = await this.pool.query<CheckpointRow>(
      `SELECT size, origin, root, note FROM ${this.table.checkpoints} ORDER BY size DESC LIMIT 1`,
    );
    return rows.length === 0 ? null : toCheckpoint(rows[0]);
  }

  async checkpoints(): Promise<SignedCheckpoint[]> {
    await this.migrate();
    const { rows } = await this.pool.query<CheckpointRow>(
      `SELECT size, origin, root, note FROM ${this.table.checkpoints} ORDER BY size`,
    );
    return rows.map(toCheckpoint);
  }

  private async write(client: pg.PoolClient, from: number, { positions, nodes }: TreeExtension): Promise<void> {
    const leaves = nodes.filter((node) => node.level === 0);
    const inner = nodes.filter((node) => node.level > 0 && isStoredLevel(node.level));
    for (let at = 0; at < leaves.length; at += CHUNK) {
      const chunk = leaves.slice(at, at + CHUNK);
      await client.query(
        `INSERT INTO ${this.table.leaves} (leaf_index, position, hash) ` +
          'SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::bytea[])',
        [chunk.map((leaf) => leaf.index), chunk.map((leaf) => positions[leaf.index - from]), chunk.map((l) => l.hash)],
      );
    }
    for (let at = 0; at < inner.length; at += CHUNK) {
      const chunk = inner.slice(at, at + CHUNK);
      await client.query(
        `INSERT INTO ${this.table.nodes} (level, idx, hash) ` +
          'SELECT * FROM unnest($1::smallint[], $2::bigint[], $3::bytea[])',
        [chunk.map((node) => node.level), chunk.map((node) => node.index), chunk.map((node) => node.hash)],
      );
    }
  }
}

interface CheckpointRow {
  size: string;
  origin: string;
  root: Buffer;
  note: string;
}

const toCheckpoint = (row: CheckpointRow): SignedCheckpoint => ({
  size: Number(row.size),
  origin: row.origin,
  root: row.root,
  note: row.note,
});
