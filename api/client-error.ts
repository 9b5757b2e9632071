import type { Duplex } from 'node:stream';
import { randomUUID } from 'node:crypto';
import type { Config } from '../core/config.js';
import { HttpProblems } from './problems.js';
import { PROBLEM_MEDIA_TYPE } from './problem-response.js';

/**
 * A request that Node's HTTP parser refuses (control characters in a header, oversized headers) never
 * reaches Koa. It is still answered with problem details, then the connection is closed, since the
 * parser cannot tell where the next request would begin.
 */
export function answerClientError(config: Config) {
  return (error: Error & { code?: string; rawPacket?: Buffer }, socket: Duplex): void => {
    if (!socket.writable || error.code === 'ECONNRESET') {
      socket.destroy();
      return;
    }
    const type = error.code === 'HPE_HEADER_OVERFLOW' ? HttpProblems.headersTooLarge : HttpProblems.malformedRequest;
    const requestId = `req_${randomUUID().replaceAll('-', '')}`;
    const path = /^[A-Z]+ (\/[^ ?\r\n]*)/.exec(error.rawPacket?.toString('latin1') ?? '')?.[1] ?? '/';
    const body = JSON.stringify({
      type: `${config.errorTypeBase}/${type.slug}`,
      title: type.title,
      status: type.status,
      detail: 'the request is not valid HTTP/1.1 and cannot be read',
      instance: path,
      request_id: requestId,
    });
    socket.end(
      `HTTP/1.1 ${type.status} ${type.title}\r\nContent-Type: ${PROBLEM_MEDIA_TYPE}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
    );
  };
}
