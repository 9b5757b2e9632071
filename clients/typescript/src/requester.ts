import { errorFromResponse } from './errors.js';
import { PageList, type Page } from './pagination/page-list.js';
import type { RawClient } from './paths.js';
import { retryingFetch, type FetchLike, type RetryPolicy } from './transport/retrying-fetch.js';

/** What every call takes as its last argument, beyond its own parameters. */
export interface RequestOptions {
  /** The `Idempotency-Key` of a POST; a UUID is generated when absent. Reused across the call's retries. */
  idempotencyKey?: string;
  /** Aborts the call, its retries and waits included. */
  signal?: AbortSignal;
  /** Overrides the client's `maxRetries` for this call. */
  maxRetries?: number;
  /** Overrides the client's `timeoutMs` for this call. */
  timeoutMs?: number;
  /** More request headers. */
  headers?: Record<string, string>;
}

/** What a call of openapi-fetch resolves to. */
interface Answer<Data> {
  data?: Data;
  error?: unknown;
  response: Response;
}

/** The openapi-fetch client with the transport the client's options and a call's options ask for. */
export class Requester {
  constructor(
    readonly raw: RawClient,
    private readonly base: FetchLike,
    readonly policy: RetryPolicy,
  ) {}

  /** The part of openapi-fetch's options that a call's RequestOptions give. */
  init(options: RequestOptions = {}): { headers: Record<string, string>; signal?: AbortSignal; fetch: FetchLike } {
    const headers = { ...options.headers };
    if (options.idempotencyKey !== undefined) headers['Idempotency-Key'] = options.idempotencyKey;
    return { headers, signal: options.signal, fetch: retryingFetch(this.base, this.policyOf(options)) };
  }

  policyOf(options: RequestOptions = {}): RetryPolicy {
    return {
      maxRetries: options.maxRetries ?? this.policy.maxRetries,
      timeoutMs: options.timeoutMs ?? this.policy.timeoutMs,
    };
  }

  /** A list whose pages `fetchPage` asks for. */
  list<P extends Page>(fetchPage: (cursor: string | undefined) => Promise<Answer<P>>): PageList<P['data'][number], P> {
    return new PageList((cursor) => unwrap(fetchPage(cursor)));
  }
}

/** The body of a success, or the error a problem answer is thrown as. */
export async function unwrap<Data>(call: Promise<Answer<Data>>): Promise<Data> {
  const { data, error, response } = await call;
  if (!response.ok) throw errorFromResponse(response, error);
  if (data === undefined) throw new Error(`${response.url} answered ${response.status} without a body`);
  return data;
}
