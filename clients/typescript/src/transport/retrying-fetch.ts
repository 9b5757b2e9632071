import { randomUUID } from 'node:crypto';
import { FinsynthConnectionError, FinsynthTimeoutError } from '../errors.js';
import { MAX_RETRY_AFTER_MS, retryAfterMs, retryDelayMs } from './backoff.js';
import { sleep } from './sleep.js';

/** The fetch the client sends each attempt through (openapi-fetch's signature: one Request). */
export type FetchLike = (request: Request) => Promise<Response>;

export interface RetryPolicy {
  /** Retries after the first attempt; 0 sends once. */
  maxRetries: number;
  /** How long each attempt waits for its answer to begin; undefined waits as long as the connection lasts. */
  timeoutMs: number | undefined;
}

/** Methods that do the same when repeated, and so may be repeated after a connection broke. */
const IDEMPOTENT_METHODS = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);

/** 429 and 5xx may pass; 501 says the operation is not there, which no wait changes. */
const isRetryableStatus = (status: number): boolean => status === 429 || (status >= 500 && status !== 501);

/**
 * Wraps a fetch with what Stripe's clients do: every POST carries an `Idempotency-Key` (a UUID unless the
 * caller set one), kept across its retries so that the service performs it once; 429 and 5xx answers are
 * retried, up to `maxRetries` times, after an exponential, jittered wait that is never shorter than the
 * answer's `Retry-After`; a connection that fails is retried only for a request that is safe to repeat
 * (an idempotent method, or a POST with its key). Other answers are returned as they are.
 */
export function retryingFetch(base: FetchLike, policy: RetryPolicy, random: () => number = Math.random): FetchLike {
  return async function send(request: Request): Promise<Response> {
    const headers = new Headers(request.headers);
    if (request.method === 'POST' && !headers.has('idempotency-key')) headers.set('Idempotency-Key', randomUUID());
    const repeatable = IDEMPOTENT_METHODS.has(request.method) || headers.has('idempotency-key');
    // The body is read once so that every attempt sends the same bytes.
    const body = request.body === null ? undefined : new Uint8Array(await request.arrayBuffer());
    for (let retry = 0; ; retry++) {
      const attempt = new AbortController();
      const timer =
        policy.timeoutMs === undefined
          ? undefined
          : setTimeout(
              () => attempt.abort(new FinsynthTimeoutError(timeoutMessage(request, policy))),
              policy.timeoutMs,
            );
      let response: Response;
      try {
        response = await base(
          new Request(request.url, {
            method: request.method,
            headers,
            body,
            redirect: request.redirect,
            signal: AbortSignal.any([request.signal, attempt.signal]),
          }),
        );
      } catch (error) {
        // The caller's own abort ends the call at once, with the caller's reason.
        if (request.signal.aborted) throw request.signal.reason;
        const failure = attempt.signal.aborted
          ? attempt.signal.reason
          : new FinsynthConnectionError(`${request.method} ${request.url}: the connection failed`, { cause: error });
        if (!repeatable || retry >= policy.maxRetries) throw failure;
        await sleep(retryDelayMs(retry, undefined, random), request.signal);
        continue;
      } finally {
        clearTimeout(timer);
      }
      if (!isRetryableStatus(response.status) || retry >= policy.maxRetries) return response;
      const retryAfter = retryAfterMs(response.headers.get('retry-after'), Date.now());
      if (retryAfter !== undefined && retryAfter > MAX_RETRY_AFTER_MS) return response;
      // The refused answer's body is not read: releasing it frees the connection for the retry.
      await response.body?.cancel();
      await sleep(retryDelayMs(retry, retryAfter, random), request.signal);
    }
  };
}

const timeoutMessage = (request: Request, policy: RetryPolicy) =>
  `${request.method} ${request.url}: no answer began within ${policy.timeoutMs} ms`;
