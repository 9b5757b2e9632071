import { performance } from 'node:perf_hooks';
import type { FetchLike } from '../../../../clients/typescript/src/index.js';

/** One attempt the client sent, as it reached the network. */
export interface Attempt {
  method: string;
  url: URL;
  headers: Headers;
  /** The answer's status; undefined when the attempt failed without one. */
  status?: number;
  answerHeaders?: Headers;
  /** performance.now() when it was sent and when its answer (or failure) came. */
  sentAt: number;
  answeredAt: number;
}

/**
 * A fetch for the client that records every attempt; `inner` may tamper with the exchange (fail it after
 * the service answered, change a header) to produce what a network does.
 */
export function recordingFetch(inner: FetchLike = (request) => fetch(request)): {
  fetch: FetchLike;
  attempts: Attempt[];
} {
  const attempts: Attempt[] = [];
  return {
    attempts,
    async fetch(request) {
      const attempt: Attempt = {
        method: request.method,
        url: new URL(request.url),
        headers: new Headers(request.headers),
        sentAt: performance.now(),
        answeredAt: Number.NaN,
      };
      attempts.push(attempt);
      try {
        const response = await inner(request);
        attempt.status = response.status;
        attempt.answerHeaders = response.headers;
        return response;
      } finally {
        attempt.answeredAt = performance.now();
      }
    },
  };
}
