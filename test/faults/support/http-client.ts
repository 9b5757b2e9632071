import { request as httpRequest } from 'node:http';
import type { JsonBody } from '../../support/json-body.js';

/** What one exchange came to: an answer, or no answer (the connection refused or reset, or no answer in time). */
export type Exchange =
  | { kind: 'answer'; status: number; headers: Record<string, string | string[] | undefined>; body: Buffer; ms: number }
  | { kind: 'refused' | 'reset' | 'timeout'; error: string; ms: number };

export interface CallOptions {
  key?: string;
  body?: unknown;
  idempotencyKey?: string;
  /** A hang: no answer within this time. */
  timeoutMs?: number;
}

/**
 * One request on a connection of its own (no keep-alive pool), so that an exchange's outcome is its own:
 * a connection that another exchange left open to an instance since killed never answers for it.
 */
export function call(baseUrl: string, method: string, path: string, options: CallOptions = {}): Promise<Exchange> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const body = options.body === undefined ? undefined : Buffer.from(JSON.stringify(options.body));
  const headers: Record<string, string> = { connection: 'close' };
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  if (body) headers['content-type'] = 'application/json';
  if (options.idempotencyKey) headers['idempotency-key'] = options.idempotencyKey;
  return new Promise((resolve) => {
    let settled = false;
    const settle = (exchange: Exchange) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(exchange);
    };
    const sent = httpRequest(`${baseUrl}${path}`, { method, headers, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        settle({
          kind: 'answer',
          status: response.statusCode ?? 0,
          headers: response.headers,
          body: Buffer.concat(chunks),
          ms: elapsed(),
        }),
      );
      response.on('error', (error) => settle({ kind: 'reset', error: error.message, ms: elapsed() }));
    });
    const timer = setTimeout(() => {
      settle({ kind: 'timeout', error: `no answer within ${options.timeoutMs} ms`, ms: elapsed() });
      sent.destroy();
    }, options.timeoutMs ?? 30_000);
    sent.on('error', (error: NodeJS.ErrnoException) =>
      settle({ kind: error.code === 'ECONNREFUSED' ? 'refused' : 'reset', error: error.message, ms: elapsed() }),
    );
    sent.end(body);
  });
}

export type Answer = Extract<Exchange, { kind: 'answer' }>;

/** Whether the exchange got an answer, and with this status when one is given. */
export function answered(exchange: Exchange | null, status?: number): exchange is Answer {
  return exchange !== null && exchange.kind === 'answer' && (status === undefined || exchange.status === status);
}

/** The JSON of an answer (a problem's members too). */
export function json(exchange: Exchange): JsonBody {
  if (exchange.kind !== 'answer') throw new Error(`no answer: ${exchange.kind} ${exchange.error}`);
  return JSON.parse(exchange.body.toString('utf8'));
}

/** The problem slug of an answer (the last segment of its `type`), or undefined for a success. */
export function slugOf(exchange: Exchange): string | undefined {
  if (exchange.kind !== 'answer' || exchange.status < 400) return undefined;
  if (!String(exchange.headers['content-type']).startsWith('application/problem+json')) return '(not a problem)';
  return String(json(exchange).type).split('/').pop();
}
