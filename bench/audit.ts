/**
 * `npm run bench -- audit [--json] [--events N] [--accounts N]`: builds a sqlite store of credit events
 * (1,000,000 over 1,000 accounts by default), catches the projections up, then times the full audit
 * (`finsynth audit`'s work) in one thread per core. Target and latest figures: docs/performance.md.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../core/settings/settings.js';
import type { NewEvent } from '../core/events/envelope.js';
import { EventRegistry } from '../core/events/registry.js';
import { eventDefinitions } from '../core/services/event-definitions.js';
import { accountStream } from '../core/accounts/account.js';
import { auditStore } from '../core/audit/store-audit.js';
import { SqliteEventStore } from '../core/store/sqlite-store.js';
import { projections } from '../projections/index.js';
import { projectedTotals } from '../projections/ledger/ledger-totals.js';
import { ProjectionRunner } from '../projections/runner/projection-runner.js';
import type { BenchOptions } from './index.js';

const EVENTS_PER_ROUND = 10;

function option(args: string[], name: string, fallback: number): number {
  const index = args.indexOf(`--${name}`);
  return index === -1 ? fallback : Number(args[index + 1]);
}

/**
 * The n-th slice of an account's credit history: an opening grant, then quick generations (live and
 * sandbox), refunds of failed ones, and jobs reserved then settled: every movement the ledger knows.
 */
function history(accountId: string, round: number): NewEvent[] {
  const events: NewEvent[] = [];
  if (round === 0) {
    events.push({
      type: 'AccountOpened',
      data: { account_id: accountId, tier: 'team', opened_at: '2026-01-01T00:00:00.000Z' },
    });
    events.push({
      type: 'CreditsGranted',
      data: { reference: `opening-${accountId}`, credits: 10_000_000, reason: 'team tier allowance' },
    });
  }
  const tables = [{ name: 'transactions', rows: 1500, credits: 3 }];
  const metadata = { request_id: `req_${round}`, key_id: 'key_bench', mode: 'live' as const };
  for (let i = events.length; i < EVENTS_PER_ROUND; i += 1) {
    const reference = `r${round}_${i}`;
    switch (i % 5) {
      case 0:
      case 2:
        events.push({
          type: 'CreditsDebited',
          data: {
            reference,
            mode: i % 4 ? 'live' : 'test',
            key_id: 'key_bench',
            operation: 'quick',
            sector: 'cards',
            tables,
            credits: 3,
          },
          metadata,
        });
        break;
      case 1:
        events.push({
          type: 'CreditsRefunded',
          data: {
            reference: `r${round}_${i - 1}`,
            mode: (i - 1) % 4 ? 'live' : 'test',
            credits: 3,
            reason: 'generation failed',
          },
          metadata,
        });
        break;
      case 3:
        events.push({
          type: 'CreditsReserved',
          data: { reference, mode: 'live', key_id: 'key_bench', sector: 'cards', tables, credits: 9 },
          metadata,
        });
        break;
      case 4:
        events.push({
          type: 'CreditsSettled',
          data: { reference: `r${round}_${i - 1}`, mode: 'live', tables, credits: 3, released: 6 },
          metadata,
        });
        break;
    }
  }
  return events;
}

export async function run({ json, args }: BenchOptions) {
  const total = option(args, 'events', 1_000_000);
  const accounts = option(args, 'accounts', 1_000);
  const rounds = Math.ceil(total / (accounts * EVENTS_PER_ROUND));
  const log = (line: string) => (json ? process.stderr : process.stdout).write(`${line}\n`);
  const dir = await mkdtemp(join(tmpdir(), 'finsynth-bench-audit-'));
  const store = new SqliteEventStore(join(dir, 'events.db'));
  try {
    let started = performance.now();
    const ids = Array.from({ length: accounts }, (_, i) => `acc_${String(i).padStart(4, '0')}`);
    for (let round = 0; round < rounds; round += 1) {
      // Appends of one tick share one transaction (the adapter's group commit): streams interleave as in production.
      await Promise.all(ids.map((id) => store.append(accountStream(id), history(id, round))));
    }
    const events = await store.headPosition();
    log(`built ${events} events over ${accounts} accounts in ${((performance.now() - started) / 1000).toFixed(1)} s`);

    started = performance.now();
    const runner = new ProjectionRunner(store, new EventRegistry(eventDefinitions), projections, undefined, {
      batchSize: 10_000,
    });
    await runner.waitFor(events, 3_600_000);
    log(`projections caught up in ${((performance.now() - started) / 1000).toFixed(1)} s`);

    started = performance.now();
    const cpu = process.cpuUsage();
    const config = loadConfig({}, { dataDir: dir });
    const report = await auditStore(store, projectedTotals(runner), {
      until: events,
      parallel: { config, workers: availableParallelism() },
    });
    const seconds = (performance.now() - started) / 1000;
    const { user, system } = process.cpuUsage(cpu);
    if (!report.holds)
      throw new Error(`the audit of the bench store does not hold: ${JSON.stringify(report).slice(0, 500)}`);
    const result = {
      events: report.events,
      seconds: Number(seconds.toFixed(3)),
      events_per_s: Math.round(report.events / seconds),
    };
    log(
      `full audit: ${result.events} events in ${result.seconds} s = ${result.events_per_s} ` +
        `events/s (target ≥ 300,000), every chain intact, every total equal`,
    );
    // Process CPU time, all threads: what the audit costs whatever else the machine is running.
    log(
      `  ${((user + system) / 1e6).toFixed(1)} s of CPU over ${availableParallelism()} ` +
        `threads = ${Math.round(result.events / ((user + system) / 1e6))} events per CPU-second`,
    );
    // Wall-clock figures on a shared machine mean little without the load they were measured under.
    log(
      `  load average ${loadavg()
        .map((load) => load.toFixed(1))
        .join(' ')} on ${availableParallelism()} cores`,
    );
    return result;
  } finally {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  }
}
