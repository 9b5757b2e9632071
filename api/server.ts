import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { App } from './app.js';
import { answerClientError } from './client-error.js';

export interface RunningServer {
  server: Server;
  port: number;
  url: string;
  /** Graceful: stops accepting, lets in-flight requests finish (up to `graceMs`), then resolves. */
  close(graceMs?: number): Promise<void>;
}

/** Listens on `port` (0: an ephemeral one). Closing drains: /readyz fails at once, open requests finish. */
export async function listen(app: App, port: number, host?: string): Promise<RunningServer> {
  const callback = app.callback();
  // Node answers these itself with an empty body; handed to the app, they are answered as problem details (http-conformance.ts).
  const server = createServer({ requireHostHeader: false }, callback);
  server.on('checkExpectation', callback);
  // Keep-alive sockets that a load balancer holds open must not outlive an idle timeout of its own.
  server.keepAliveTimeout = 65_000;
  server.on('clientError', answerClientError(app.context.services.config));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const actual = (server.address() as AddressInfo).port;
  return {
    server,
    port: actual,
    url: `http://${host ?? '127.0.0.1'}:${actual}`,
    async close(graceMs = 10_000) {
      app.context.lifecycle.draining = true;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const timer = setTimeout(() => server.closeAllConnections(), graceMs);
      await closed;
      clearTimeout(timer);
    },
  };
}
