import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import canonicalize from 'canonicalize';
import pg from 'pg';
import type { RecordedEvent } from '../../core/events/envelope.js';
import { accountStream } from '../../core/accounts/account.js';
import { openCheckpoint } from '../../core/audit/log/checkpoint.js';
import { parseVerifierKey } from '../../core/audit/log/note.js';
import { PostgresEventStore } from '../../core/store/postgres-store.js';
import { SqliteEventStore } from '../../core/store/sqlite-store.js';
import type { Config } from '../../core/settings/settings.js';
import { TestClock } from '../../core/clock.js';
import { openAccount, request, startTestApp, type TestAccount, type TestApp } from '../support/app.js';
import { requirePostgres } from '../support/external-services.js';

const bin = fileURLToPath(new URL('../../bin/finsynth.js', import.meta.url));

/** One store under attack: where its events are, and SQL on them as someone with the database's password. */
interface Target {
  /** Configuration of the service over this store. */
  config: Partial<Config>;
  /** The environment and arguments that point a finsynth command at this store. */
  cli: { env: Record<string, string>; args: string[] };
  /** The account's events as the store returns them. */
  readStream(stream: string): Promise<RecordedEvent[]>;
  /** Stored data and hash replaced at one position; the projections' snapshots dropped, to be rebuilt from it. */
  overwrite(changes: { position: number; data: unknown; hash: string }[]): Promise<void>;
  close(): Promise<void>;
}

async function sqliteTarget(dataDir: string): Promise<Target> {
  const file = join(dataDir, 'events.db');
  return {
    config: {},
    cli: { env: { FINSYNTH_POSTGRES_URL: '' }, args: ['--data', dataDir] },
    async readStream(stream) {
      const store = new SqliteEventStore(file);
      try {
        return await store.readStream(stream);
      } finally {
        await store.close();
      }
    },
    async overwrite(changes) {
      const db = new Database(file);
      try {
        const update = db.prepare('UPDATE events SET data = ?, hash = ? WHERE position = ?');
        for (const { position, data, hash } of changes) update.run(canonicalize(data), hash, position);
        db.exec('DELETE FROM projection_snapshots');
      } finally {
        db.close();
      }
    },
    async close() {},
  };
}

/** A database of its own (not a schema: the commands find the store by its URL alone), dropped at the end. */
async function postgresTarget(context: Mocha.Context, dataDir: string): Promise<Target> {
  const base = await requirePostgres(context);
  const name = `finsynth_rewrite_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  const databaseUrl = url.toString();
  const sql = async (work: (client: pg.Client) => Promise<void>) => {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      await work(client);
    } finally {
      await client.end();
    }
  };
  return {
    config: { postgresUrl: databaseUrl },
    cli: { env: { FINSYNTH_POSTGRES_URL: databaseUrl }, args: ['--data', dataDir] },
    async readStream(stream) {
      const store = await PostgresEventStore.open(databaseUrl);
      try {
        return await store.readStream(stream);
      } finally {
        await store.close();
      }
    },
    async overwrite(changes) {
      await sql(async (client) => {
        for (const { position, data, hash } of changes)
          await client.query('UPDATE events SET data = $1::jsonb, hash = $2 WHERE position = $3', [
            JSON.stringify(data),
            hash,
            position,
          ]);
        await client.query('DELETE FROM projection_snapshots');
      });
    },
    async close() {
      const client = new pg.Client({ connectionString: base });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

/** The event hash as docs/audit.md spells it, computed with an independent JCS implementation. */
function eventHash(previous: string, event: Omit<RecordedEvent, 'hash' | 'position'>): string {
  const { id, stream, revision, type, version, data, metadata, recorded_at } = event;
  const content = canonicalize({ id, stream, revision, type, version, data, metadata, recorded_at });
  return createHash('sha256').update(`${previous}\n${content}`, 'utf8').digest('hex');
}

const targets: Record<string, (context: Mocha.Context, dataDir: string) => Promise<Target>> = {
  sqlite: (_context, dataDir) => sqliteTarget(dataDir),
  postgres: postgresTarget,
};

for (const [name, open] of Object.entries(targets)) {
  describe(`a consistent rewrite of an account's last credit, on ${name}`, function () {
    this.timeout(180_000);
    let dataDir: string;
    let target: Target | undefined;
    let app: TestApp | undefined;

    beforeEach(async function () {
      dataDir = await mkdtemp(join(tmpdir(), 'finsynth-rewrite-'));
      target = await open(this, dataDir);
    });
    afterEach(async () => {
      await app?.close();
      app = undefined;
      await target?.close();
      await rm(dataDir, { recursive: true, force: true });
    });

    // One instant for both starts: no subscription falls due in between, so the second adds no event of its own.
    const clock = new TestClock('2026-03-02T10:00:00.000Z');
    const start = async () =>
      (app = await startTestApp({ dataDir, clock, config: { auditCheckpointIntervalMs: 50, ...target!.config } }));

    async function finsynth(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
      const child = spawn(process.execPath, [bin, ...args], {
        env: {
          ...process.env,
          FINSYNTH_REDIS_URL: '',
          FINSYNTH_KEY: '',
          FINSYNTH_LOG_LEVEL: 'warn',
          ...target!.cli.env,
        },
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk) => (stdout += chunk));
      child.stderr.on('data', (chunk) => (stderr += chunk));
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      return { code, stdout, stderr };
    }

    /** Until the log has signed a checkpoint of every event the store holds; its size. */
    async function checkpointOfEverything(running: TestApp): Promise<number> {
      const events = (await running.services.store.readAll()).length;
      const verifier = parseVerifierKey(running.services.auditLog.verifierKey);
      for (;;) {
        const opened = openCheckpoint((await request(running, 'GET', '/v1/audit/checkpoint')).text, verifier);
        if (opened.verified && opened.checkpoint.size >= events) return opened.checkpoint.size;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }

    const debit = (running: TestApp, account: TestAccount, reference: string) =>
      running.services.credits.debit({
        accountId: account.accountId,
        mode: 'live',
        keyId: null,
        reference,
        operation: 'generate.quick',
        sector: 'cards',
        tables: [{ name: 'cardholders', rows: 100, credits: 40 }],
        credits: 40,
      });

    it('holds for the replay audit and the bundle alone, and is caught by the witness and verify --checkpoint', async () => {
      const first = await start();
      const account = await openAccount(first, { credits: 1_000, billing: 'invoice' });
      // Its first period's billing, which a start would otherwise do after the rewrite, adding an event.
      await first.services.billing.runDue([account.accountId]);
      await debit(first, account, 'req_1');
      await debit(first, account, 'req_2');
      await first.services.credits.grant({
        accountId: account.accountId,
        amount: 250,
        reference: 'goodwill_1',
        reason: 'goodwill',
      });
      const size = await checkpointOfEverything(first);
      const keyFile = join(dataDir, 'audit.pub');
      await writeFile(keyFile, `${first.services.auditLog.verifierKey}\n`);
      const state = join(dataDir, 'witness');
      const witness = (url: string) =>
        finsynth('audit', 'witness', '--url', url, '--state', state, '--public-key', keyFile, '--key', account.live);

      // An auditor's witness keeps the checkpoint of everything so far.
      const kept = await witness(first.url);
      expect(kept.code, kept.stderr).to.equal(0);
      expect(kept.stdout).to.include(`, ${size} events, root `);
      await first.close();
      app = undefined;

      // The operator, with the database's password: the last credit's amount changed, its hash and every later
      // hash of the stream recomputed as docs/audit.md spells them, the read models made to rebuild from it.
      const events = await target!.readStream(accountStream(account.accountId));
      const last = events.findLastIndex((event) => event.type === 'CreditsGranted');
      expect(events[last].data).to.deep.include({ credits: 250 });
      const changes: { position: number; data: unknown; hash: string }[] = [];
      let previous = events[last - 1].hash;
      for (const event of events.slice(last)) {
        const data = event === events[last] ? { ...(event.data as object), credits: 2_500 } : event.data;
        const hash = eventHash(previous, { ...event, data });
        changes.push({ position: event.position, data, hash });
        previous = hash;
      }
      await target!.overwrite(changes);

      // The operator's own tools: the tree no longer matches, and the signed checkpoint contradicts the events.
      const check = await finsynth('audit', 'rebuild-log', '--check', ...target!.cli.args);
      expect(check.code).to.equal(1);
      expect(check.stdout).to.match(new RegExp(`^CONTRADICTS  the signed checkpoint of ${size} events`, 'm'));
      const refused = await finsynth('audit', 'rebuild-log', ...target!.cli.args);
      expect([refused.code, refused.stdout.includes('NOT rebuilt')]).to.deep.equal([1, true]);
      const forced = await finsynth('audit', 'rebuild-log', '--force', ...target!.cli.args);
      expect(forced.code, forced.stdout + forced.stderr).to.equal(0);
      // The replay audit of the store holds: every chain is intact, every balance replays.
      const replay = await finsynth('audit', '--account', account.accountId, ...target!.cli.args);
      expect(replay.code, replay.stdout + replay.stderr).to.equal(0);
      expect(replay.stdout).to.include('the audit holds');

      // The service again: it signs the rewritten tree, of the same size.
      const second = await start();
      expect(await checkpointOfEverything(second)).to.equal(size);
      const fork = await witness(second.url);
      expect(fork.code).to.equal(1);
      expect(fork.stderr).to.match(new RegExp(`^FORK {7}the log signed two trees of ${size} events`, 'm'));
      const [evidence] = await readdir(join(state, 'evidence'));
      expect((await readdir(join(state, 'evidence', evidence))).sort()).to.deep.equal([
        `kept-${size}.note`,
        `served-${size}.note`,
      ]);

      // The bundle the service now exports holds on its own: only the kept checkpoint shows the fork.
      const bundle = join(dataDir, 'bundle.ndjson');
      const exported = await request(second, 'GET', '/v1/audit/credits/export', { key: account.live });
      await writeFile(bundle, exported.text);
      const alone = await finsynth('audit', 'verify', bundle, '--public-key', keyFile);
      expect(alone.code, alone.stdout).to.equal(0);
      // With the forged grant: 2,250 credits more than the account was given.
      const shown = await request(second, 'GET', '/v1/billing/credits', { key: account.live });
      expect(alone.stdout).to.include(`replayed balance: ${shown.body.credits_available} credits available`);
      const stored = await target!.readStream(accountStream(account.accountId));
      expect(stored.filter((event) => event.type === 'CreditsGranted').at(-1)!.data).to.deep.include({
        credits: 2_500,
      });
      const checked = await finsynth(
        'audit',
        'verify',
        bundle,
        '--public-key',
        keyFile,
        '--checkpoint',
        join(state, 'checkpoint'),
      );
      expect(checked.code).to.equal(1);
      expect(checked.stdout).to.match(
        new RegExp(`^FORK {7}the kept checkpoint and the bundle's are both of size ${size}`, 'm'),
      );

      // Later events: a larger tree, which does not extend the one kept.
      await debit(second, account, 'req_3');
      const later = await checkpointOfEverything(second);
      expect(later).to.be.greaterThan(size);
      const rewrite = await witness(second.url);
      expect(rewrite.code).to.equal(1);
      expect(rewrite.stderr).to.match(
        new RegExp(`^REWRITE {4}the log's tree of ${later} events does not extend its tree of ${size}`, 'm'),
      );
      for (const query of ['', `?consistency_from=${size}`]) {
        const response = await request(second, 'GET', `/v1/audit/credits/export${query}`, { key: account.live });
        await writeFile(bundle, response.text);
        const verified = await finsynth(
          'audit',
          'verify',
          bundle,
          '--public-key',
          keyFile,
          '--checkpoint',
          join(state, 'checkpoint'),
          '--url',
          second.url,
          '--key',
          account.live,
        );
        expect(verified.code, query).to.equal(1);
        expect(verified.stdout, query).to.match(/^REWRITE {4}/m);
      }
    });
  });
}
