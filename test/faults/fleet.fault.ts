import { expect } from 'chai';
import pg from 'pg';
import { startPostgresCluster, type PostgresCluster } from './support/postgres-cluster.js';
import { startRedisServer, type RedisServer } from './support/redis-server.js';
import { startFleet, type Fleet, type Instance } from './support/fleet.js';
import { answered, call, json } from './support/http-client.js';
import { delay } from './support/processes.js';
import { sha256, TrafficLog, type Operation, type Recorded } from './support/traffic.js';

/**
 * Faults on a fleet (`npm run test:faults`): three instances of `finsynth serve` share a PostgreSQL
 * cluster, a redis-server and one results folder, all the suite's own. While clients run jobs and quick
 * generations, one instance is killed mid-job and started again; PostgreSQL is stopped at once, then
 * frozen (SIGSTOP), for OUTAGE_MS each; its idle connections are terminated; Redis is stopped. Then every
 * job has ended, results are byte-identical to a reference run, every operation was charged once, and
 * `finsynth audit` holds. Bounds, not speeds: a request with no answer within HANG_MS is a hang, and
 * /readyz must answer 200 again within READY_RECOVERY_BOUND_MS of the store coming back.
 */
const OUTAGE_MS = 10_000;
const HANG_MS = 20_000;
const READY_RECOVERY_BOUND_MS = 30_000;
const JOB_SEEDS = [101, 102, 103, 104];
const QUICK_SEEDS = [7, 8, 9];
const QUICK_WORKERS = 2;

const quickBody = (seed: number) => ({ sector: 'cards', tables: [{ name: 'merchants', rows: 10 }], seed });
const jobBody = (seed: number) => ({
  config: {
    version: 1,
    sector: 'cards',
    seed,
    tables: [
      // Large enough that a job runs for seconds and records progress while it does, whatever the machine's load.
      { name: 'transactions', rows: 1_000_000 },
      { name: 'merchants', rows: 500 },
    ],
    output: { format: 'csv', compression: 'gzip' },
  },
});

/** The members of a job the suite reads once the job has ended. */
interface EndedJob {
  id: string;
  state: string;
  /** A problem, when the job failed. */
  failure?: Record<string, unknown>;
  credits_charged?: number | null;
}

interface Outage {
  what: string;
  from: number;
  /** When the store (or Redis) was back. */
  to: number;
  /** Per instance: ms from `to` until its /readyz answered 200. */
  readyAfterMs: Record<string, number>;
  /** What each instance answered while it was out: a quick generation and /readyz. */
  probes: { instance: string; quick: Recorded; readyz: Recorded }[];
}

describe('faults on a fleet', function () {
  this.timeout(900_000);
  let cluster: PostgresCluster | undefined;
  let redis: RedisServer | undefined;
  let fleet: Fleet | undefined;
  const traffic = new TrafficLog();
  const figures: string[] = [];

  before(async function () {
    cluster = await startPostgresCluster();
    redis = await startRedisServer();
    fleet = await startFleet(3, {
      FINSYNTH_POSTGRES_URL: cluster.url,
      FINSYNTH_REDIS_URL: redis.url,
      FINSYNTH_POOL_SIZE: '1',
      FINSYNTH_JOBS_PER_INSTANCE: '2',
      // A killed instance's job is taken over once its lease runs out.
      FINSYNTH_JOB_LEASE_MS: '5000',
      FINSYNTH_LOG_LEVEL: 'warn',
    });
  });

  after(async function () {
    await fleet?.destroy();
    await redis?.stop();
    await cluster?.destroy();
    if (figures.length > 0)
      console.log(`\n      fault suite figures:\n${figures.map((line) => `        ${line}`).join('\n')}\n`);
  });

  /** An account opened with the CLI, as an operator does, once every instance knows its key. */
  async function openAccount(credits: number): Promise<{ accountId: string; live: string }> {
    const created = await fleet!.cli(['accounts', 'create', '--tier', 'scale', '--credits', String(credits), '--json']);
    expect(created.code, created.stderr).to.equal(0);
    const { account_id: accountId, keys } = JSON.parse(created.stdout) as {
      account_id: string;
      keys: { live: string };
    };
    for (const instance of fleet!.instances) {
      for (let attempt = 0; ; attempt++) {
        const answer = await call(instance.url, 'GET', '/v1/billing/credits', { key: keys.live, timeoutMs: HANG_MS });
        if (answered(answer, 200)) break;
        if (attempt > 100) throw new Error(`${instance.name} does not know the new key`);
        await delay(100);
      }
    }
    return { accountId, live: keys.live };
  }

  async function balance(key: string): Promise<{ credits_available: number; credits_reserved: number }> {
    const answer = await call(fleet!.instances[0]!.url, 'GET', '/v1/billing/credits', { key, timeoutMs: HANG_MS });
    if (!answered(answer, 200)) throw new Error(`GET /v1/billing/credits: ${JSON.stringify(answer)}`);
    return json(answer);
  }

  /** Polls /readyz of every instance every 100 ms from `since`: how long each took to answer 200. */
  async function readyAgain(since: number): Promise<Record<string, number>> {
    const after: Record<string, number> = {};
    await Promise.all(
      fleet!.instances.map(async (instance) => {
        for (;;) {
          const answer = await call(instance.url, 'GET', '/readyz', { timeoutMs: HANG_MS });
          if (answered(answer, 200)) {
            after[instance.name] = Date.now() - since;
            return;
          }
          if (Date.now() - since > READY_RECOVERY_BOUND_MS + HANG_MS) return;
          await delay(100);
        }
      }),
    );
    return after;
  }

  /**
   * The instance whose runner holds the job now, from the job's last JobStarted event (its instance id
   * holds the pid).
   */
  async function runnerOf(jobId: string): Promise<Instance | undefined> {
    const client = new pg.Client({ connectionString: cluster!.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ instance: string }>(
        `SELECT data->>'instance_id' AS instance FROM events ` +
          `WHERE stream = $1 AND type = 'JobStarted' ORDER BY revision DESC LIMIT 1`,
        [`job-${jobId}`],
      );
      const pid = Number(rows[0]?.instance.split(':')[1]);
      return fleet!.instances.find((instance) => instance.pid() === pid);
    } finally {
      await client.end();
    }
  }

  async function eventsOf(stream: string): Promise<{ type: string; reference: string }[]> {
    const client = new pg.Client({ connectionString: cluster!.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ type: string; reference: string }>(
        `SELECT type, data->>'reference' AS reference FROM events WHERE stream = $1 ORDER BY revision`,
        [stream],
      );
      return rows;
    } finally {
      await client.end();
    }
  }

  /** A job's state once it has ended (bounded: a job that never ends fails the suite). */
  async function endedJob(key: string, jobId: string): Promise<EndedJob> {
    const deadline = Date.now() + 300_000;
    for (let n = 0; ; n++) {
      const answer = await call(fleet!.instances[n % 3]!.url, 'GET', `/v1/jobs/${jobId}`, { key, timeoutMs: HANG_MS });
      if (answered(answer, 200) && ['succeeded', 'failed', 'cancelled'].includes(json(answer).state))
        return json(answer);
      if (Date.now() > deadline) throw new Error(`job ${jobId} has not ended: ${JSON.stringify(answer)}`);
      await delay(250);
    }
  }

  /** The sha256 of each result file of a succeeded job: downloaded whole, and as the listing gives it. */
  async function resultDigests(key: string, jobId: string): Promise<Record<string, string>> {
    const listing = await call(fleet!.instances[0]!.url, 'GET', `/v1/jobs/${jobId}/results`, {
      key,
      timeoutMs: HANG_MS,
    });
    if (!answered(listing, 200)) throw new Error(`GET /v1/jobs/${jobId}/results: ${JSON.stringify(listing)}`);
    const digests: Record<string, string> = {};
    for (const file of json(listing).data as { table: string; sha256: string; download_url: string }[]) {
      const download = await call(fleet!.instances[1]!.url, 'GET', file.download_url, { key, timeoutMs: 120_000 });
      if (!answered(download, 200)) throw new Error(`download of ${file.download_url}: ${JSON.stringify(download)}`);
      expect(sha256(download.body), `${jobId} ${file.table}: the file as downloaded`).to.equal(file.sha256);
      digests[file.table] = file.sha256;
    }
    return digests;
  }

  it('keeps every instance alive through a killed instance, PostgreSQL stopped and frozen, its connections terminated and Redis stopped; every job ends, bytes and credits hold', async function () {
    const INITIAL = 1_000_000;
    const account = await openAccount(INITIAL);
    const instances = fleet!.instances;
    const live = () => instances.filter((instance) => instance.pid() !== undefined);

    // Clients: jobs created first, then quick generations, two at a time, until the faults are over.
    const jobOps = await Promise.all(
      JOB_SEEDS.map((seed, n) =>
        traffic.operation([instances[n % 3]!, ...instances], 'POST', '/v1/jobs', {
          key: account.live,
          body: jobBody(seed),
          idempotencyKey: `job-${seed}`,
          timeoutMs: HANG_MS,
        }),
      ),
    );
    for (const op of jobOps) expect(answered(op.final, 202), JSON.stringify(op.attempts)).to.equal(true);
    const jobIds = jobOps.map((op) => json(op.final!).id as string);

    let stopping = false;
    let next = 0;
    const quickOps: { seed: number; op: Operation }[] = [];
    const quickOperation = async (targets: Instance[]) => {
      const n = next++;
      const seed = QUICK_SEEDS[n % QUICK_SEEDS.length]!;
      const op = await traffic.operation(targets, 'POST', '/v1/generate/quick', {
        key: account.live,
        body: quickBody(seed),
        idempotencyKey: `quick-${n}`,
        timeoutMs: HANG_MS,
      });
      quickOps.push({ seed, op });
      return op;
    };
    const workers = Array.from({ length: QUICK_WORKERS }, async (_, worker) => {
      for (let round = 0; !stopping && round < 100_000; round++) {
        const first = (worker + round) % 3;
        await quickOperation([...instances.slice(first), ...instances.slice(0, first)]);
      }
    });

    /**
     * Probes each live instance while the store is out: a quick generation (its first exchange is the
     * probe; the operation then goes on, retried, until it ends) and /readyz.
     */
    const probes: Promise<unknown>[] = [];
    const probe = async (outage: Outage) => {
      await Promise.all(
        live().map(async (instance) => {
          const n = next++;
          const seed = QUICK_SEEDS[n % QUICK_SEEDS.length]!;
          const options = {
            key: account.live,
            body: quickBody(seed),
            idempotencyKey: `quick-${n}`,
            timeoutMs: HANG_MS,
          };
          const [quick, readyz] = await Promise.all([
            traffic.send(instance, 'POST', '/v1/generate/quick', options),
            traffic.send(instance, 'GET', '/readyz', { timeoutMs: HANG_MS }),
          ]);
          outage.probes.push({ instance: instance.name, quick: quick.recorded, readyz: readyz.recorded });
          probes.push(
            traffic.operation(instances, 'POST', '/v1/generate/quick', options).then((op) => {
              quickOps.push({ seed, op: { ...op, attempts: [quick.recorded, ...op.attempts] } });
            }),
          );
        }),
      );
    };

    const outages: Outage[] = [];
    /** What one instance answered while the store was out, as the figures print it. */
    const probeFigure = (p: Outage['probes'][number]) =>
      `${p.instance} quick ${p.quick.status} in ${p.quick.ms} ms, readyz ${p.readyz.status} in ${p.readyz.ms} ms`;
    const storeOutage = async (what: string, begin: () => Promise<void> | void, end: () => Promise<void> | void) => {
      const outage: Outage = { what, from: Date.now(), to: 0, readyAfterMs: {}, probes: [] };
      await begin();
      await delay(1000);
      await probe(outage);
      await delay(Math.max(0, outage.from + OUTAGE_MS - Date.now()));
      await end();
      outage.to = Date.now();
      outage.readyAfterMs = await readyAgain(outage.to);
      outages.push(outage);
      figures.push(
        `${what}: /readyz 200 again after ${JSON.stringify(outage.readyAfterMs)} ms; ` +
          `probes ${outage.probes.map(probeFigure).join('; ')}`,
      );
    };

    // 1. An instance killed while it runs a job, then started again.
    let victim: Instance | undefined;
    let running: string | undefined;
    for (let attempt = 0; !victim && attempt < 600; attempt++) {
      for (const id of jobIds) {
        const job = await call(instances[0]!.url, 'GET', `/v1/jobs/${id}`, { key: account.live, timeoutMs: HANG_MS });
        if (answered(job, 200) && json(job).state === 'running' && json(job).progress.rows_done > 0) {
          victim = await runnerOf(id);
          running = id;
          if (victim) break;
        }
      }
      if (!victim) await delay(100);
    }
    expect(victim, 'an instance running a job').to.not.equal(undefined);
    const killedAt = Date.now();
    await victim!.kill('SIGKILL');
    await victim!.start();
    const restartedAt = Date.now();
    figures.push(
      `SIGKILL of ${victim!.name} while it ran job ${running}: started again and ready in ${restartedAt - killedAt} ms`,
    );

    // 2. PostgreSQL stopped at once (as a crash or a failover), started again after OUTAGE_MS.
    await storeOutage(
      'PostgreSQL stopped (pg_ctl stop -m immediate)',
      () => cluster!.stopImmediately(),
      () => cluster!.start(),
    );
    // 3. PostgreSQL frozen: connections open, nothing answers.
    await storeOutage(
      'PostgreSQL frozen (SIGSTOP)',
      () => cluster!.freeze(),
      () => cluster!.thaw(),
    );
    // 4. Every idle connection terminated by the server.
    await delay(2000);
    const terminatedAt = Date.now();
    const terminated = await cluster!.terminateIdleConnections();
    const readyAfterTerminate = await readyAgain(terminatedAt);
    figures.push(
      `pg_terminate_backend of ${terminated} idle connections: ` +
        `/readyz 200 after ${JSON.stringify(readyAfterTerminate)} ms`,
    );
    // The connections lost while idle were heard, logged and counted, by every instance.
    const poolErrors: Record<string, number> = {};
    for (const instance of instances) {
      const metrics = await call(instance.url, 'GET', '/metrics', { timeoutMs: HANG_MS });
      if (!answered(metrics, 200)) throw new Error(`GET /metrics: ${JSON.stringify(metrics)}`);
      poolErrors[instance.name] = Number(
        /^finsynth_unexpected_errors_total\{source="postgres-pool"\} (\d+)$/m.exec(metrics.body.toString())?.[1] ?? 0,
      );
    }
    figures.push(`finsynth_unexpected_errors_total{source="postgres-pool"}: ${JSON.stringify(poolErrors)}`);
    for (const instance of instances)
      expect(poolErrors[instance.name], `${instance.name} counted its lost connections`).to.be.above(0);
    // 5. Redis stopped: requests are still answered (whether rate limits then fail open is the rate limiter's to say).
    const redisFrom = Date.now();
    await redis!.stop();
    await delay(OUTAGE_MS);
    await redis!.start();
    const redisTo = Date.now();
    await delay(3000);

    stopping = true;
    await Promise.all([...workers, ...probes]);
    const ended = await Promise.all(jobIds.map((id) => endedJob(account.live, id)));

    // Reference run: the same configs and seeds on the fleet at rest; each of its results, and each quick
    // generation, byte for byte.
    const referenceOps = await Promise.all(
      JOB_SEEDS.map((seed) =>
        traffic.operation(instances, 'POST', '/v1/jobs', {
          key: account.live,
          body: jobBody(seed),
          idempotencyKey: `reference-${seed}`,
          timeoutMs: HANG_MS,
        }),
      ),
    );
    const references = await Promise.all(referenceOps.map((op) => endedJob(account.live, json(op.final!).id)));
    const referenceQuick: Record<number, string> = {};
    for (const seed of QUICK_SEEDS) {
      const answer = await call(instances[0]!.url, 'POST', '/v1/generate/quick', {
        key: account.live,
        body: quickBody(seed),
        timeoutMs: HANG_MS,
      });
      if (!answered(answer, 200)) throw new Error(`reference quick generation: ${JSON.stringify(answer)}`);
      referenceQuick[seed] = sha256(answer.body);
    }

    // No instance exited but the one killed.
    for (const instance of instances)
      expect(
        instance.exits.filter((exit) => !exit.expected),
        `${instance.name} exited`,
      ).to.deep.equal([]);

    // Every job ended: succeeded with the reference's bytes, or failed with a problem that says why.
    for (const [n, job] of ended.entries()) {
      if (job.state === 'failed') {
        expect(job.failure, `job ${job.id}`).to.include.keys('type', 'title', 'detail');
        expect(job.credits_charged ?? 0).to.equal(0);
        continue;
      }
      expect(job.state, `job ${job.id}`).to.equal('succeeded');
      expect(references[n].state).to.equal('succeeded');
      expect(await resultDigests(account.live, job.id), `job ${job.id} against the reference run`).to.deep.equal(
        await resultDigests(account.live, references[n].id),
      );
    }
    figures.push(
      `jobs: ${ended.map((job) => job.state).join(', ')} ` +
        `(reference run: ${references.map((job) => job.state).join(', ')})`,
    );

    // Every quick generation ended, and each answer of a seed has the bytes of the reference.
    const unfinished = quickOps.filter(({ op }) => op.final === null);
    expect(
      unfinished.map(({ op }) => op.attempts),
      'operations that never ended',
    ).to.deep.equal([]);
    const refused = quickOps.filter(({ op }) => !answered(op.final, 200));
    expect(
      refused.map(({ op }) => [op.key, op.attempts.at(-1)]),
      'quick generations refused for good',
    ).to.deep.equal([]);
    const succeeded = quickOps.flatMap(({ seed, op }) =>
      answered(op.final, 200) ? [{ seed, key: op.key, body: op.final.body }] : [],
    );
    for (const { seed, key, body } of succeeded)
      expect(sha256(body), `${key} (seed ${seed})`).to.equal(referenceQuick[seed]);
    const quickExchanges = quickOps.reduce((sum, { op }) => sum + op.attempts.length, 0);
    figures.push(`quick generations: ${succeeded.length} operations succeeded in ${quickExchanges} exchanges`);

    // Charged exactly once: one debit per operation, one reservation per job settled or released once, and the balance.
    const events = await eventsOf(`account-${account.accountId}`);
    const count = (type: string) => events.filter((event) => event.type === type).length;
    const references_ = (type: string) => events.filter((event) => event.type === type).map((event) => event.reference);
    expect(count('CreditsDebited') - count('CreditsRefunded'), 'quick generations charged').to.equal(
      succeeded.length + QUICK_SEEDS.length,
    );
    expect(new Set(references_('CreditsDebited')).size).to.equal(count('CreditsDebited'));
    const allJobs = [...ended, ...references];
    expect(references_('CreditsReserved').sort()).to.deep.equal(allJobs.map((job) => job.id).sort());
    expect([...references_('CreditsSettled'), ...references_('CreditsReleased')].sort()).to.deep.equal(
      allJobs.map((job) => job.id).sort(),
    );
    const jobCredits = allJobs.reduce((sum, job) => sum + (job.credits_charged ?? 0), 0);
    const expectedBalance = {
      credits_available: INITIAL - succeeded.length - QUICK_SEEDS.length - jobCredits,
      credits_reserved: 0,
    };
    // Instance 0's read model may still be a poll behind the last debit or settlement another instance appended.
    const reached = (now: typeof expectedBalance) =>
      now.credits_available === expectedBalance.credits_available &&
      now.credits_reserved === expectedBalance.credits_reserved;
    let balanceNow = await balance(account.live);
    for (let n = 0; n < 50 && !reached(balanceNow); n++) {
      await delay(100);
      balanceNow = await balance(account.live);
    }
    expect(balanceNow).to.deep.include(expectedBalance);

    // While the store was out, each instance answered 503 problems with Retry-After, and /readyz 503 not-ready.
    for (const outage of outages) {
      expect(outage.probes.map((p) => p.instance).sort(), outage.what).to.deep.equal(
        instances.map((i) => i.name).sort(),
      );
      for (const { instance, quick, readyz } of outage.probes) {
        expect(quick, `${outage.what}: ${instance} quick generation`).to.deep.include({
          kind: 'answer',
          status: 503,
          slug: 'store-unavailable',
        });
        expect(Number(quick.retryAfter), `${outage.what}: ${instance} Retry-After`).to.be.at.least(1);
        expect(readyz, `${outage.what}: ${instance} /readyz`).to.deep.include({
          kind: 'answer',
          status: 503,
          slug: 'not-ready',
        });
      }
      for (const instance of instances) {
        expect(
          outage.readyAfterMs[instance.name],
          `${outage.what}: ${instance.name} ready again within ${READY_RECOVERY_BOUND_MS} ms`,
        ).to.be.below(READY_RECOVERY_BOUND_MS);
      }
    }
    for (const instance of instances)
      expect(readyAfterTerminate[instance.name], `${instance.name} ready after the terminations`).to.be.below(
        READY_RECOVERY_BOUND_MS,
      );

    // Every exchange was answered (no hang, no reset) except the killed instance's while it was down; no 500 at all;
    // every 5xx a 503 problem with Retry-After. With Redis down too.
    const notAnswered = traffic.exchanges.filter(
      (each) =>
        each.kind !== 'answer' &&
        !(each.instance === victim!.name && each.at >= killedAt && each.at - each.ms <= restartedAt),
    );
    expect(notAnswered, 'exchanges without an answer').to.deep.equal([]);
    const serverErrors = traffic.exchanges.filter(
      (each) =>
        (each.status ?? 0) >= 500 &&
        !(each.status === 503 && Number(each.retryAfter) >= 1 && each.slug !== '(not a problem)'),
    );
    expect(serverErrors, '5xx other than a 503 problem with Retry-After').to.deep.equal([]);
    const duringRedis = traffic.between(redisFrom, redisTo);
    expect(duringRedis.length, 'exchanges while Redis was down').to.be.above(0);
    figures.push(
      `Redis down ${redisTo - redisFrom} ms: ${duringRedis.length} exchanges, ` +
        `answers ${JSON.stringify(countBy(duringRedis.map(outcome)))}`,
    );
    figures.push(
      `all exchanges: ${traffic.exchanges.length}, answers ${JSON.stringify(countBy(traffic.exchanges.map(outcome)))}`,
    );

    // The audit of the account's history holds.
    const audit = await fleet!.cli(['audit', '--account', account.accountId, '--json']);
    expect(audit.code, audit.stdout + audit.stderr).to.equal(0);
    expect(JSON.parse(audit.stdout)).to.include({ holds: true });
  });

  it('credits across instances: an account with credits for N quick generations gets 5N concurrent requests on two instances; exactly N succeed', async function () {
    const N = 10;
    const account = await openAccount(N);
    const [a, b] = fleet!.instances;
    const answers = await Promise.all(
      Array.from({ length: 5 * N }, (_, n) =>
        call((n % 2 === 0 ? a : b)!.url, 'POST', '/v1/generate/quick', {
          key: account.live,
          body: quickBody(1000 + n),
          timeoutMs: HANG_MS,
        }),
      ),
    );
    const statuses = countBy(answers.map((answer) => (answered(answer) ? answer.status : answer.kind)));
    expect(statuses, 'answers').to.deep.equal({ 200: N, 402: 4 * N });
    expect(await balance(account.live)).to.deep.include({ credits_available: 0, credits_reserved: 0 });
    // The audit replays the account's history and checks its balance after every event: never below zero.
    const audit = await fleet!.cli(['audit', '--account', account.accountId, '--json']);
    expect(audit.code, audit.stdout + audit.stderr).to.equal(0);
    expect(JSON.parse(audit.stdout))
      .to.include({ holds: true })
      .and.to.have.property('negative_balances')
      .that.deep.equals([]);
  });
});

const outcome = (each: Recorded): string =>
  each.status === undefined ? each.kind : [each.status, each.slug].filter(Boolean).join(' ');

function countBy(values: unknown[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const value of values) counts[String(value)] = (counts[String(value)] ?? 0) + 1;
  return counts;
}
