import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { Redis } from 'ioredis';
import { KurrentDBClient } from '@kurrent/kurrentdb-client';

/**
 * For `before` hooks of tests that need a server. Variable unset: the suite is skipped (pending), as on a
 * developer's machine. Variable set but the server does not answer: the hook FAILS, so that CI, which
 * sets the variables, can never go silently green on tests that did not run.
 */
async function requireService(
  context: Mocha.Context,
  variable: string,
  probe: (url: string) => Promise<void>,
): Promise<string> {
  const url = process.env[variable];
  if (!url) context.skip();
  try {
    await probe(url);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new Error(`${variable} is set to ${url} but the service does not answer: ${why}`, { cause: error });
  }
  return url;
}

export function requirePostgres(context: Mocha.Context): Promise<string> {
  return requireService(context, 'FINSYNTH_POSTGRES_URL', async (url) => {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
    await client.connect();
    await client.query('SELECT 1').finally(() => client.end());
  });
}

export function requireRedis(context: Mocha.Context): Promise<string> {
  return requireService(context, 'FINSYNTH_REDIS_URL', async (url) => {
    const redis = new Redis(url, {
      lazyConnect: true,
      connectTimeout: 5000,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    try {
      await redis.connect();
      await redis.ping();
    } finally {
      redis.disconnect();
    }
  });
}

export function requireKurrentDb(context: Mocha.Context): Promise<string> {
  return requireService(context, 'FINSYNTH_KURRENTDB_URL', async (url) => {
    const client = KurrentDBClient.connectionString(url);
    try {
      for await (const _ of client.readAll({ maxCount: 1, deadline: 5000 })) break;
    } finally {
      await client.dispose();
    }
  });
}

/** A schema name of its own for one test run, so that parallel runs on one database never share tables. */
export function uniquePostgresSchema(prefix = 'test'): string {
  return `${prefix}_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
}

export async function dropPostgresSchema(url: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema.replaceAll('"', '""')}" CASCADE`);
  } finally {
    await client.end();
  }
}
