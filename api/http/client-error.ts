import type { Duplex } from 'node:stream';
import { randomUUID } from 'node:crypto';
import type { Config } from '../../core/settings/settings.js';
import type { ProblemType } from '../../core/problems.js';
import { HttpProblems } from './problems.js';
import { PROBLEM_MEDIA_TYPE } from './problem-response.js';

const MALFORMED = {
  type: HttpProblems.malformedRequest,
  detail: 'the request is not valid HTTP/1.1 and cannot be read',
};

/** Node's error codes that are not a malformed request: what Node itself would answer, as problem details. */
const REFUSALS: Record<string, { type: ProblemType; detail: string }> = {
  HPE_HEADER_OVERFLOW: {
    type: HttpProblems.headersTooLarge,
    detail: 'the request headers are larger than the server reads',
  },
  // headersTimeout (60 s to send the headers) and requestTimeout (300 s for the whole request).
  ERR_HTTP_REQUEST_TIMEOUT: { type: HttpProblems.requestTimeout, detail: 'the request was not received in time' },
};

/**
 * A request that Node's HTTP parser refuses (control characters in a header, oversized headers, too slow) never
 * reaches Koa. It is still answered with problem details, then the connection is closed, since the
 * parser cannot tell where the next request would begin.
 */
export function answerClientError(config: Config) {
  return (error: Error & { code?: string; rawPacket?: Buffer }, socket: Duplex): void => {
    if (!socket.writable || error.code === 'ECONNRESET') {
      socket.destroy();
      return;
    }
    const { type, detail } = REFUSALS[error.code ?? ''] ?? MALFORMED;
    const path = /^[A-Z]+ (\/[^ ?\r\n]*)/.exec(error.rawPacket?.toString('latin1') ?? '')?.[1] ?? '/';
    endWithProblem(socket, config, type, detail, path);
  };
}

/**
 * A CONNECT request (a proxy's tunnel) never reaches Koa either: Node hands it to 'connect' listeners, and
 * closes the connection unanswered when there is none. This server is no proxy: 405 with the methods it
 * serves, then the connection is closed, since whatever follows would be the tunnel's bytes.
 */
export function answerConnect(config: Config, allowed: readonly string[]) {
  return (_request: unknown, socket: Duplex): void => {
    // Node has taken its own listeners off this socket: without one, a client's reset would be an
    // unheard 'error' event, which ends the process.
    socket.on('error', () => socket.destroy());
    if (!socket.writable) {
      socket.destroy();
      return;
    }
    // What the client sends after its request is read and dropped, so that closing does not reset the answer away.
    socket.resume();
    const detail = `this server is not a proxy and takes no CONNECT; its operations take ${allowed.join(', ')}`;
    endWithProblem(socket, config, HttpProblems.methodNotAllowed, detail, '/', { Allow: allowed.join(', ') });
  };
}

/** Writes a whole problem response on a socket that Koa does not hold, and closes it. */
function endWithProblem(
  socket: Duplex,
  config: Config,
  type: ProblemType,
  detail: string,
  instance: string,
  headers: Record<string, string> = {},
): void {
  const requestId = `req_${randomUUID().replaceAll('-', '')}`;
  const body = JSON.stringify({
    type: `${config.errorTypeBase}/${type.slug}`,
    title: type.title,
    status: type.status,
    detail,
    instance,
    request_id: requestId,
  });
  const extra = Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  socket.end(
    `HTTP/1.1 ${type.status} ${type.title}\r\n` +
      `Content-Type: ${PROBLEM_MEDIA_TYPE}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `Request-Id: ${requestId}\r\n${extra}Connection: close\r\n\r\n${body}`,
  );
}
