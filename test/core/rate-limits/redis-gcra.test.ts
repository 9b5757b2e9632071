import { expect } from 'chai';
import fc from 'fast-check';
import { randomUUID } from 'node:crypto';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { Redis } from 'ioredis';
import { loadPricing } from '../../../core/pricing/pricing.js';
import { gcra, gcraPolicy } from '../../../core/rate-limits/gcra.js';
import { RedisGcra } from '../../../core/rate-limits/redis-gcra.js';
import { RateLimits } from '../../../core/rate-limits/rate-limits.js';
import { connectRedis } from '../../../core/services/services.js';
import { CountingUnexpectedErrors } from '../../../core/faults/unexpected-errors.js';
import { requireRedis } from '../../support/external-services.js';
import { freePort } from '../../support/ports.js';

const SECOND = 1_000_000;
const pricing = loadPricing();

/** A client as the services open theirs: no offline queue, so that a command fails at once while disconnected. */
const redisClient = (url: string): Promise<Redis> => connectRedis(url, new CountingUnexpectedErrors());

/** A TCP relay to Redis that can stop passing commands on (a Redis frozen by SIGSTOP), and pass them on later. */
class FreezableRelay {
  private frozen = false;
  private readonly held: { upstream: Socket; chunk: Buffer }[] = [];
  private readonly sockets = new Set<Socket>();
  private readonly server: Server;
  port = 0;

  constructor(private readonly target: URL) {
    this.server = createServer((client) => {
      const upstream = connect(Number(target.port || 6379), target.hostname);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('error', () => {});
        socket.on('close', () => this.sockets.delete(socket));
      }
      client.on('data', (chunk: Buffer) => (this.frozen ? this.held.push({ upstream, chunk }) : upstream.write(chunk)));
      upstream.pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
  }

  async listen(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as { port: number }).port;
    return this;
  }

  freeze(): void {
    this.frozen = true;
  }

  /** Passes on what was held, in order, as a Redis resumed from SIGSTOP would read it. */
  thaw(): void {
    this.frozen = false;
    for (const { upstream, chunk } of this.held.splice(0)) upstream.write(chunk);
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

describe('rate limits shared through Redis', () => {
  let url: string;
  let cleanup: Redis;
  const clients: Redis[] = [];
  const keys: string[] = [];
  let now = 100 * SECOND;
  const clock = () => now;

  const client = async (target = url) => {
    const redis = await redisClient(target);
    clients.push(redis);
    return redis;
  };
  /** A bucket key of this run only, removed after it. */
  const account = () => {
    const id = `acc_test_${randomUUID()}`;
    keys.push(`finsynth-rate:${id}`, `test-gcra:${id}`);
    return id;
  };
  const admitted = async (limits: RateLimits, accountId: string, requests: number) => {
    let count = 0;
    for (let request = 0; request < requests; request += 1) {
      if ((await limits.consume(accountId, 'free')).allowed) count += 1;
    }
    return count;
  };

  before(async function () {
    url = await requireRedis(this);
    cleanup = await redisClient(url);
  });
  after(async () => {
    if (keys.length > 0) await cleanup.del(...keys);
    for (const redis of [...clients, cleanup]) redis?.disconnect();
  });

  it('computes in its Lua script exactly what gcra() computes, request by request', async () => {
    const shared = new RedisGcra(await client(), 'test-gcra:');
    const arrivals = fc.array(fc.integer({ min: 0, max: SECOND / 2 }), { minLength: 1, maxLength: 40 });
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(1, 3, 5, 100), arrivals, async (limit, gaps) => {
        const key = account();
        const policy = gcraPolicy(limit);
        let tat = 0;
        let at = 50 * SECOND;
        for (const gap of gaps) {
          at += gap;
          const expected = gcra(tat, at, policy);
          tat = expected.tat;
          expect(await shared.take(key, policy, at)).to.deep.equal(expected);
        }
      }),
      { numRuns: 40 },
    );
  });

  it('makes two instances draw from one bucket per account', async () => {
    const first = new RateLimits(pricing, await client(), { clock });
    const second = new RateLimits(pricing, await client(), { clock });
    const id = account();
    expect(await admitted(first, id, 5)).to.equal(5);
    expect(await admitted(second, id, 3)).to.equal(0);
    now += 200_000;
    expect(await admitted(second, id, 3)).to.equal(1);
  });

  it("on the Redis server's clock, admits at most limit + ⌊D × limit⌋ in a burst that took D seconds", async () => {
    const [first, second] = [new RateLimits(pricing, await client()), new RateLimits(pricing, await client())];
    const id = account();
    const started = performance.now();
    let count = 0;
    for (let request = 0; request < 30; request += 1) {
      if ((await (request % 2 ? second : first).consume(id, 'free')).allowed) count += 1;
    }
    const seconds = (performance.now() - started) / 1000;
    expect(count)
      .to.be.at.least(5)
      .and.at.most(5 + Math.floor(seconds * 5));
  });

  it("falls back to each instance's memory buckets while Redis is unreachable (a closed port)", async () => {
    const dead = `redis://127.0.0.1:${await freePort()}`;
    const failures: unknown[] = [];
    const options = { clock, onRedisFailure: (error: unknown) => failures.push(error) };
    const first = new RateLimits(pricing, await client(dead), options);
    const second = new RateLimits(pricing, await client(dead), options);
    const id = account();
    expect(await admitted(first, id, 8)).to.equal(5);
    expect(await admitted(second, id, 8)).to.equal(5);
    // Never connected, so never called: the connection's own errors are reported where it is opened.
    expect(failures).to.deep.equal([]);
  });

  it('falls back when Redis stops answering, tells it once, and shares the bucket again once it answers', async () => {
    const relay = await new FreezableRelay(new URL(url)).listen();
    try {
      const failures: unknown[] = [];
      const options = { clock, redisTimeoutMs: 100, onRedisFailure: (error: unknown) => failures.push(error) };
      const first = new RateLimits(pricing, await client(`redis://127.0.0.1:${relay.port}`), options);
      const second = new RateLimits(pricing, await client(url), options);
      const id = account();
      expect(await admitted(first, id, 5)).to.equal(5);
      expect(await admitted(second, id, 1)).to.equal(0);

      relay.freeze();
      now += SECOND;
      // The first call waits for the timeout; the next ones go to memory without asking Redis.
      expect(await admitted(first, id, 7)).to.equal(5);
      now += 1.5 * SECOND;
      expect(await admitted(first, id, 1)).to.equal(1);
      expect(failures).to.have.length(1);
      expect(String(failures[0])).to.match(/did not answer within 100 ms/);

      relay.thaw();
      now += 10 * SECOND;
      expect(await admitted(first, id, 5)).to.equal(5);
      expect(await admitted(second, id, 1)).to.equal(0);
      expect(failures).to.have.length(1);
    } finally {
      await relay.close();
    }
  });
});
