import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { answerClientError } from '../../../api/http/client-error.js';
import { startTestApp, type TestApp } from '../../support/app.js';

/**
 * Requests Node's HTTP server refuses before Koa sees them. The app's own server waits 60 s for headers
 * and checks every 30 s; this one serves the same app with the same handler and timeouts short enough to test.
 */
describe('requests refused by the HTTP parser', () => {
  let app: TestApp;
  let server: Server;
  let port: number;

  before(async () => {
    app = await startTestApp();
    server = createServer(
      { connectionsCheckingInterval: 50, headersTimeout: 300, requestTimeout: 300 },
      app.app.callback(),
    );
    server.on('clientError', answerClientError(app.config));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await app.close();
  });

  /** Sends `bytes` and never ends the request; resolves with what the server answered before closing. */
  async function stalled(bytes: string): Promise<string> {
    const socket = connect(port, '127.0.0.1');
    socket.write(bytes);
    const chunks: Buffer[] = [];
    for await (const chunk of socket) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  }

  it('answers a client too slow to send its headers with 408 request-timeout, not 400', async () => {
    const answer = await stalled('GET /v1/keys HTTP/1.1\r\nHost: x\r\nX-Slow: ');
    const [head, body] = answer.split('\r\n\r\n');
    expect(head).to.match(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    expect(head).to.match(/\r\nContent-Type: application\/problem\+json\r\n/);
    const problem = JSON.parse(body!);
    expect(problem).to.include({
      type: 'https://errors.finsynth.dev/request-timeout',
      title: 'Request Timeout',
      status: 408,
    });
    // The parser hands on no part of a request it has not finished reading: its path is not known.
    expect(problem.instance).to.equal('/');
  });
});
