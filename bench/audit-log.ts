/**
 * `npm run bench -- audit-log [--single N] [--batched N] [--bundle N] [--json]`: the cost of the audit log.
 * (1) Appends with the Merkle tree maintained, as a server does (the audit log's background integrator running),
 * single and batched (8 streams at once, as the store bench): the rate of appends, and the rate until the tree
 * holds every event. (2) `finsynth audit verify` of a bundle of one account's events (100,000 by default): the
 * verification in this process (the file read included), and the command end to end (a process of its own).
 * sqlite always, postgres when FINSYNTH_POSTGRES_URL is set, each on a fresh database removed afterwards.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import type { BenchOptions } from './index.js';
import type { NewEvent } from '../core/events/envelope.js';
import type { EventStore } from '../core/store/event-store.js';
import { SqliteEventStore } from '../core/store/sqlite-store.js';
import { accountStream } from '../core/accounts/stream-name.js';
import { balanceChange } from '../core/accounts/credit-movement.js';
import { AuditLog } from '../core/audit/log/audit-log.js';
import { bundleLines } from '../core/audit/log/bundle-export.js';
import { parseVerifierKey } from '../core/audit/log/note.js';
import { treeStorageFor } from '../core/audit/log/tree-storage-for-store.js';
import { verifyBundle } from '../core/audit/log/verify-bundle.js';
import { readBundle } from '../core/audit/log/read-bundle.js';
import { adapters, appendConcurrently, WRITERS } from './_stores.js';

const BATCH_SIZE = 100;
const USAGE = 'usage: npm run bench -- audit-log [--single N] [--batched N] [--bundle N] [--json]';
/** The store bench's targets, which appends with the tree maintained must still meet (docs/performance.md). */
const TARGETS: Record<string, { single: number; batched: number }> = {
  sqlite: { single: 10_000, batched: 50_000 },
  postgres: { single: 2_000, batched: 20_000 },
};
const VERIFY_TARGET = 200_000;

export interface AppendFigures {
  /** Appends alone: the rate the writers saw. */
  append_per_s: number;
  /** Until the tree held every event appended: the rate with the tree maintained. */
  integrated_per_s: number;
}

export interface AuditLogFigures {
  appends: Record<string, { single: AppendFigures; batched: AppendFigures }>;
  verify: { events: number; bytes: number; in_process_per_s: number; command_per_s: number };
}

interface Sizes {
  single: number;
  batched: number;
  bundle: number;
}

function sizes(args: string[]): Sizes {
  const value = (name: string, fallback: number) => {
    const at = args.indexOf(`--${name}`);
    if (at === -1) return fallback;
    const parsed = Number(args[at + 1]);
    if (!Number.isInteger(parsed) || parsed < WRITERS * BATCH_SIZE) {
      console.error(`--${name} takes a whole number of at least ${WRITERS * BATCH_SIZE}\n${USAGE}`);
      process.exit(2);
    }
    return parsed;
  };
  if (args.includes('--help')) {
    console.log(USAGE);
    process.exit(0);
  }
  return { single: value('single', 20_000), batched: value('batched', 200_000), bundle: value('bundle', 100_000) };
}

/** An audit log started as a server starts it: the integrator in the background, checkpoints every 2 s. */
async function startedLog(store: EventStore, dir: string): Promise<AuditLog> {
  const log = new AuditLog({
    store,
    storage: treeStorageFor(store),
    keyFile: join(dir, 'audit-signing.key'),
    origin: 'bench.example/finsynth/audit',
    checkpointIntervalMs: 2_000,
    onError: (error) => console.error('audit log failed', error),
  });
  await log.start();
  return log;
}

async function appendsWithTree(store: EventStore, log: AuditLog, prefix: string, total: number, size: number) {
  const started = performance.now();
  await appendConcurrently(store, prefix, total, size);
  const appended = performance.now();
  const head = await store.headPosition();
  // The background integrator's work, then what it had not reached yet.
  while ((await log.integrate()).lastPosition < head) await new Promise((resolve) => setTimeout(resolve, 10));
  const integrated = performance.now();
  return {
    append_per_s: Math.round(total / ((appended - started) / 1000)),
    integrated_per_s: Math.round(total / ((integrated - started) / 1000)),
  };
}

/** One account's stream of `count` credit events (grants and quick debits), as the account decider writes them. */
async function fillAccount(store: EventStore, accountId: string, count: number): Promise<void> {
  const stream = accountStream(accountId);
  const at = '2026-11-22T10:15:30.123Z';
  const events: NewEvent[] = [
    { type: 'AccountOpened', data: { account_id: accountId, tier: 'scale', opened_at: at, billing: 'invoice' } },
  ];
  for (let n = 1; n < count; n += 1)
    events.push(
      n % 10 === 1
        ? { type: 'CreditsGranted', data: { reference: `grant_${n}`, credits: 1_000, reason: 'allowance' } }
        : {
            type: 'CreditsDebited',
            data: {
              reference: `req_${n.toString(36).padStart(10, '0')}`,
              mode: 'live',
              key_id: 'key_bench000000000000',
              operation: 'generate.quick',
              sector: 'cards',
              tables: [{ name: 'transactions', rows: 100, credits: 3 }],
              credits: 3,
            },
            metadata: { request_id: `req_${n}`, key_id: 'key_bench000000000000', mode: 'live' },
          },
    );
  let revision: number | 'no_stream' = 'no_stream';
  for (let from = 0; from < events.length; from += 10_000)
    revision = (await store.append(stream, events.slice(from, from + 10_000), { expectedRevision: revision }))
      .nextRevision;
}

async function measureVerify(count: number, log: (line: string) => void): Promise<AuditLogFigures['verify']> {
  const dir = mkdtempSync(join(tmpdir(), 'finsynth-bench-bundle-'));
  const store = new SqliteEventStore(join(dir, 'events.db'));
  try {
    await fillAccount(store, 'acc_bench000000000000', count);
    const auditLog = await startedLog(store, dir);
    const events = await store.readStream(accountStream('acc_bench000000000000'));
    const leafIndexes = await auditLog.leafIndexes(events.map((event) => event.position));
    const checkpoint = await auditLog.signCheckpoint();
    const balance = { credits_available: 0, credits_reserved: 0 };
    for (const event of events) {
      const change = balanceChange(event);
      balance.credits_available += change?.available ?? 0;
      balance.credits_reserved += change?.reserved ?? 0;
    }
    let text = '';
    for await (const lines of bundleLines(auditLog, {
      accountId: 'acc_bench000000000000',
      events,
      leafIndexes,
      checkpoint,
      balance,
    }))
      text += lines;
    const bundle = join(dir, 'bundle.ndjson');
    await writeFile(bundle, text);
    const publicKey = auditLog.verifierKey;
    await auditLog.stop();
    log(`bundle: ${count.toLocaleString('en')} events, ${(text.length / 1e6).toFixed(1)} MB`);

    const started = performance.now();
    const report = await verifyBundle(await readBundle(bundle), { verifier: parseVerifierKey(publicKey) });
    const inProcess = performance.now() - started;
    if (report.failures.length > 0) throw new Error(`the bundle does not verify: ${report.failures[0]}`);

    const bin = fileURLToPath(new URL('../bin/finsynth.js', import.meta.url));
    const commandStarted = performance.now();
    const code = await new Promise<number | null>((resolve) =>
      spawn(process.execPath, [bin, 'audit', 'verify', bundle, '--public-key', publicKey], { stdio: 'ignore' }).on(
        'close',
        resolve,
      ),
    );
    const command = performance.now() - commandStarted;
    if (code !== 0) throw new Error(`finsynth audit verify exited ${code}`);
    return {
      events: count,
      bytes: text.length,
      in_process_per_s: Math.round(count / (inProcess / 1000)),
      command_per_s: Math.round(count / (command / 1000)),
    };
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const rate = (n: number) => `${n.toLocaleString('en')}/s`;
const verdict = (value: number, target: number) => (value >= target ? 'meets' : 'BELOW') + ` ${rate(target)}`;

export async function run({ json, args }: BenchOptions): Promise<AuditLogFigures> {
  const log = json ? console.error : console.log;
  const { single, batched, bundle } = sizes(args);
  log(
    `audit log: ${single.toLocaleString('en')} single and ${batched.toLocaleString('en')} batched appends ` +
      `(${BATCH_SIZE}/append, ${WRITERS} streams) with the tree maintained; ` +
      `verify of a ${bundle.toLocaleString('en')}-event bundle`,
  );
  const appends: AuditLogFigures['appends'] = {};
  for (const adapter of adapters()) {
    const { store, dispose } = await adapter.open();
    const dir = mkdtempSync(join(tmpdir(), 'finsynth-bench-key-'));
    try {
      const auditLog = await startedLog(store, dir);
      const figures = {
        single: await appendsWithTree(store, auditLog, 'single', single, 1),
        batched: await appendsWithTree(store, auditLog, 'batch', batched, BATCH_SIZE),
      };
      await auditLog.stop();
      appends[adapter.name] = figures;
      const target = TARGETS[adapter.name];
      log(
        `${adapter.name.padEnd(9)} single: appends ${rate(figures.single.append_per_s)}, tree included ` +
          `${rate(figures.single.integrated_per_s)} (${verdict(figures.single.integrated_per_s, target.single)}) · ` +
          `batched: appends ${rate(figures.batched.append_per_s)}, tree included ` +
          `${rate(figures.batched.integrated_per_s)} (${verdict(figures.batched.integrated_per_s, target.batched)})`,
      );
    } finally {
      await dispose();
      rmSync(dir, { recursive: true, force: true });
    }
  }
  if (!process.env.FINSYNTH_POSTGRES_URL) log('postgres: skipped (FINSYNTH_POSTGRES_URL is not set)');
  const verify = await measureVerify(bundle, log);
  log(
    `verify: ${rate(verify.in_process_per_s)} in process (${verdict(verify.in_process_per_s, VERIFY_TARGET)}), ` +
      `${rate(verify.command_per_s)} as a command (its start included)`,
  );
  return { appends, verify };
}
