import { createHash } from 'node:crypto';
import { call, slugOf, type CallOptions, type Exchange } from './http-client.js';
import { delay } from './processes.js';
import type { Instance } from './fleet.js';

/** An exchange as the suite keeps it: when, with which instance, and what came of it. */
export interface Recorded {
  at: number;
  instance: string;
  path: string;
  kind: Exchange['kind'];
  status?: number;
  slug?: string;
  retryAfter?: string;
  ms: number;
}

/** A client's operation, retried under one Idempotency-Key until it ends. */
export interface Operation {
  key: string;
  /**
   * The last answer: 200 or 202 when it was done; another status when it was refused for good; null when it
   * gave up.
   */
  final: Exchange | null;
  attempts: Recorded[];
}

/** Any answer that says "not now": retried after its Retry-After (at most 2 s), as a client would. */
const retriable = (exchange: Exchange): boolean =>
  exchange.kind !== 'answer' ||
  exchange.status === 503 ||
  exchange.status === 429 ||
  (exchange.status === 409 && slugOf(exchange) === 'idempotency-in-flight');

export const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

/** Keeps every exchange of the suite, so that the outage windows can be checked afterwards. */
export class TrafficLog {
  readonly exchanges: Recorded[] = [];

  record(instance: Instance, path: string, exchange: Exchange): Recorded {
    const recorded: Recorded = { at: Date.now(), instance: instance.name, path, kind: exchange.kind, ms: exchange.ms };
    if (exchange.kind === 'answer') {
      recorded.status = exchange.status;
      recorded.slug = slugOf(exchange);
      const retryAfter = exchange.headers['retry-after'];
      if (typeof retryAfter === 'string') recorded.retryAfter = retryAfter;
    }
    this.exchanges.push(recorded);
    return recorded;
  }

  async send(
    instance: Instance,
    method: string,
    path: string,
    options: CallOptions,
  ): Promise<{ exchange: Exchange; recorded: Recorded }> {
    const exchange = await call(instance.url, method, path, options);
    return { exchange, recorded: this.record(instance, path, exchange) };
  }

  /**
   * One operation: sent to `targets[0]`, then retried on the next instance each time it meets "not
   * now" (503, 429, 409 in flight, no answer), under the same Idempotency-Key, until `giveUpMs`.
   */
  async operation(
    targets: Instance[],
    method: string,
    path: string,
    options: CallOptions & { idempotencyKey: string },
    giveUpMs = 120_000,
  ): Promise<Operation> {
    const attempts: Recorded[] = [];
    const deadline = Date.now() + giveUpMs;
    for (let attempt = 0; ; attempt++) {
      const { exchange, recorded } = await this.send(targets[attempt % targets.length]!, method, path, options);
      attempts.push(recorded);
      if (!retriable(exchange)) return { key: options.idempotencyKey, final: exchange, attempts };
      if (Date.now() > deadline) return { key: options.idempotencyKey, final: null, attempts };
      const seconds = Number(recorded.retryAfter);
      await delay(Number.isFinite(seconds) && seconds > 0 ? Math.min(seconds * 1000, 2000) : 250);
    }
  }

  /** The exchanges with `instance` (all when omitted) between two moments. */
  between(from: number, to: number, instance?: string): Recorded[] {
    return this.exchanges.filter(
      (each) => each.at >= from && each.at <= to && (instance === undefined || each.instance === instance),
    );
  }
}
