import { Agent, request as httpRequest, type IncomingMessage } from 'node:http';
import type { TestResponse } from '../../support/app.js';

/**
 * A request as it goes on the wire. node:http sends what fetch refuses: any header list (repeated
 * names, bytes 0x80-0xFF as latin1), such bytes in the path, a body on a GET, chunked framing.
 */
export interface WireRequest {
  method: string;
  /** Path and query, already encoded; characters above 0x7F go out as single latin1 bytes. */
  path: string;
  headers: Array<[string, string]>;
  body?: Buffer;
  /** Send the body in chunks without a Content-Length. */
  chunked?: boolean;
}

export interface WireResponse extends TestResponse {
  bytes: Buffer;
}

/** An answer that did not come: the connection failed or the server kept silent past the limit. */
export class NoAnswer extends Error {}

/** How long a request may go unanswered before the suite calls it a hang (never a figure of speed). */
const ANSWER_LIMIT_MS = 120_000;

const isJson = (contentType: string | undefined): boolean =>
  /^application\/(?:[\w.-]+\+)?json\s*(?:;|$)/i.test(contentType ?? '');

function headersOf(message: IncomingMessage): Headers {
  const headers = new Headers();
  for (let i = 0; i < message.rawHeaders.length; i += 2)
    headers.append(message.rawHeaders[i]!, message.rawHeaders[i + 1]!);
  return headers;
}

export class WireClient {
  private readonly agent: Agent;

  constructor(
    private readonly port: number,
    connections = 4,
  ) {
    this.agent = new Agent({ keepAlive: true, maxSockets: connections });
  }

  send(request: WireRequest): Promise<WireResponse> {
    return new Promise((resolve, reject) => {
      const headers = request.headers.flat();
      if (!request.headers.some(([name]) => name.toLowerCase() === 'host'))
        headers.push('Host', `127.0.0.1:${this.port}`);
      if (request.body && !request.chunked) headers.push('Content-Length', String(request.body.length));
      // Said explicitly: node:http frames a DELETE's (or a GET's) body in chunks only when told to.
      if (request.body && request.chunked) headers.push('Transfer-Encoding', 'chunked');
      const outgoing = httpRequest({
        host: '127.0.0.1',
        port: this.port,
        method: request.method,
        path: request.path,
        headers,
        agent: this.agent,
        setHost: false,
      });
      let answered = false;
      outgoing.setTimeout(ANSWER_LIMIT_MS, () =>
        outgoing.destroy(new NoAnswer(`no answer within ${ANSWER_LIMIT_MS} ms`)),
      );
      outgoing.on('response', (message) => {
        answered = true;
        const chunks: Buffer[] = [];
        message.on('data', (chunk: Buffer) => chunks.push(chunk));
        message.on('error', (error) => reject(new NoAnswer(`the answer broke off: ${error.message}`)));
        message.on('end', () => {
          const bytes = Buffer.concat(chunks);
          const text = bytes.toString('utf8');
          const contentType = message.headers['content-type'];
          // A JSON document is parsed; a part of one (a range of a JSON result file) stays text.
          let body: unknown = text;
          if (isJson(contentType) && text !== '') {
            try {
              body = JSON.parse(text);
            } catch {
              body = text;
            }
          }
          resolve({ status: message.statusCode!, headers: headersOf(message), body, text, bytes });
        });
      });
      // A server that answers a body over its limit and closes may break the upload; its answer counts.
      outgoing.on('error', (error) => {
        if (!answered)
          reject(
            error instanceof NoAnswer
              ? error
              : new NoAnswer(`${error.message} (${(error as NodeJS.ErrnoException).code ?? 'no code'})`),
          );
      });
      if (request.body && request.chunked) {
        const half = Math.floor(request.body.length / 2);
        outgoing.write(request.body.subarray(0, half));
        outgoing.end(request.body.subarray(half));
      } else outgoing.end(request.body);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

/** The usual JSON request with a Bearer key, for the traffic that is not itself under test. */
export function jsonRequest(
  method: string,
  path: string,
  key: string | undefined,
  body?: unknown,
  headers: Array<[string, string]> = [],
): WireRequest {
  const all: Array<[string, string]> = [...headers];
  if (key) all.push(['Authorization', `Bearer ${key}`]);
  if (body === undefined) return { method, path, headers: all };
  all.push(['Content-Type', 'application/json']);
  return { method, path, headers: all, body: Buffer.from(JSON.stringify(body)) };
}
