import pg from 'pg';
import { inTransaction } from '../../../../core/store/postgres-transaction.js';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A pool whose INSERTs run in a transaction that takes its transaction id first, waits, inserts, waits
 * again, and only then commits. Writers on ordinary pools commit meanwhile with later ids: exactly the
 * in-flight transaction a reader of "all" must wait for rather than pass.
 */
export class SlowCommitPool extends pg.Pool {
  /**
   * How many inserts were held open: the suite checks it, so that a change in the store cannot quietly bypass
   * the delay.
   */
  slowCommits = 0;

  // pg's query has many overloads; the store calls query(text, values) and query({ name, text, values }).
  override query = (async (query: string | pg.QueryConfig, values?: unknown[]) => {
    const text = typeof query === 'string' ? query : query.text;
    if (!/^\s*INSERT/i.test(text)) return super.query(query as string, values);
    const result = await inTransaction(this, async (client) => {
      await client.query('SELECT pg_current_xact_id()');
      await pause(Math.random() * 20);
      const inserted = await client.query(query as string, values);
      await pause(Math.random() * 40);
      return inserted;
    });
    this.slowCommits += 1;
    return result;
  }) as unknown as pg.Pool['query'];
}
