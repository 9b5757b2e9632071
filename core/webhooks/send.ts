import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { hostOf, pinnedLookup, type CheckedUrl } from './url-guard.js';

export interface SendOptions {
  /** Bytes of the answer read before the connection is dropped: only its status matters. */
  maxResponseBytes: number;
  /**
   * Ends the exchange wherever it is, the answer's body included; its reason (an Error) says why, and is the
   * outcome when no status has come yet. The caller's deadline is what bounds the attempt.
   */
  signal: AbortSignal;
}

/** The receiver's status code, or why there was none (refused, unreachable, timed out). */
export type SendOutcome = { statusCode: number; error: null } | { statusCode: null; error: string };

export const USER_AGENT = 'finsynth-webhooks/1';

/**
 * POSTs the body to the checked URL, connecting only to its checked addresses. Follows no redirect
 * (node:http never does: a 3xx is the outcome), keeps no connection, and resolves once the status is known;
 * the answer's body is read up to the limit in the background and then dropped.
 */
export function send(
  target: CheckedUrl,
  body: string,
  headers: Record<string, string>,
  options: SendOptions,
): Promise<SendOutcome> {
  const { url, addresses } = target;
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<SendOutcome>((resolve) => {
    let settled = false;
    const settle = (outcome: SendOutcome) => {
      if (settled) return;
      settled = true;
      resolve(outcome);
    };
    const req = request({
      method: 'POST',
      protocol: url.protocol,
      hostname: hostOf(url),
      port: url.port || undefined,
      path: `${url.pathname}${url.search}`,
      headers: {
        ...headers,
        'Content-Type': 'application/json',
        'Content-Length': String(Buffer.byteLength(body)),
        'User-Agent': USER_AGENT,
        Connection: 'close',
      },
      lookup: pinnedLookup(addresses),
      agent: false,
    });
    const { signal } = options;
    const aborted = () => {
      settle({
        statusCode: null,
        error: signal.reason instanceof Error ? signal.reason.message : String(signal.reason),
      });
      req.destroy();
    };
    const finish = () => signal.removeEventListener('abort', aborted);
    req.on('response', (response: IncomingMessage) => {
      const { statusCode } = response;
      settle(
        statusCode === undefined
          ? { statusCode: null, error: 'an answer without a status' }
          : { statusCode, error: null },
      );
      let read = 0;
      response.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read > options.maxResponseBytes) response.destroy();
      });
      response.on('error', () => {});
      response.on('close', () => {
        finish();
        req.destroy();
      });
    });
    req.on('error', (error: NodeJS.ErrnoException) => {
      finish();
      settle({ statusCode: null, error: error.code ? `${error.code}: ${error.message}` : error.message });
    });
    req.on('close', () => {
      if (!settled) settle({ statusCode: null, error: 'the connection closed without an answer' });
    });
    if (signal.aborted) aborted();
    else signal.addEventListener('abort', aborted, { once: true });
    req.end(body);
  });
}
