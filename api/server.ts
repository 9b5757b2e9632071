import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { App } from './app.js';
import { answerClientError, answerConnect } from './client-error.js';

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
  server.on('connect', answerConnect(app.context.services.config, servedMethods(app)));
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
      // A request whose bytes have arrived but are not read yet leaves its keep-alive connection looking
      // idle, and closing a connection with unread bytes resets it. The event loop reads them first (the
      // next turn's poll phase reads what has arrived), so that the request is answered, with
      // Connection: close (closeWhenDraining), and its connection closed after the answer.
      for (let turn = 0; turn < 2; turn += 1) await new Promise((resolve) => setImmediate(resolve));
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const timer = setTimeout(() => server.closeAllConnections(), graceMs);
      await closed;
      clearTimeout(timer);
    },
  };
}

/** The methods of the app's operations, from its OpenAPI document; HEAD with GET, as the router serves it. */
function servedMethods(app: App): string[] {
  const { paths } = JSON.parse(app.context.openapi) as { paths: Record<string, Record<string, unknown>> };
  const methods = new Set(Object.values(paths).flatMap((operations) => Object.keys(operations).map((method) => method.toUpperCase())));
  if (methods.has('GET')) methods.add('HEAD');
  return ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'].filter((method) => methods.has(method));
}
