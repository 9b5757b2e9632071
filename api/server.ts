import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Config } from '../core/settings/settings.js';
import type { App } from './app.js';
import { readChunkSizes } from './http/chunked-bodies.js';
import { answerClientError, answerConnect } from './http/client-error.js';

export interface RunningServer {
  server: Server;
  port: number;
  url: string;
  /** Graceful: stops accepting, lets in-flight requests finish (up to `graceMs`), then resolves. */
  close(graceMs?: number): Promise<void>;
}

/** Listens on `port` (0: an ephemeral one). Closing drains: /readyz fails at once, open requests finish. */
export async function listen(app: App, port: number, host?: string): Promise<RunningServer> {
  return (await bind(app.context.services.config, port, host)).serve(app);
}

/** A server that holds its port before the app exists; requests arriving meanwhile wait for the app. */
export interface BoundServer {
  port: number;
  serve(app: App): RunningServer;
  /** Gives the port back, when the app is not to be served after all. */
  close(): Promise<void>;
}

/**
 * Takes the port first, so that a start that cannot serve (the port in use: EADDRINUSE, or not allowed:
 * EACCES) fails before anything else is done: `finsynth serve` then opens no account and prints no keys.
 */
export async function bind(config: Config, port: number, host?: string): Promise<BoundServer> {
  let callback: RequestListener | undefined;
  const waiting: (() => void)[] = [];
  const handle: RequestListener = (request, response) => {
    if (callback) callback(request, response);
    else waiting.push(() => callback!(request, response));
  };
  // Node answers these itself with an empty body; handed to the app, they are answered as problem details
  // (api/middleware/http-conformance.ts).
  const server = createServer({ requireHostHeader: false }, handle);
  server.on('checkExpectation', handle);
  // Keep-alive sockets that a load balancer holds open must not outlive an idle timeout of its own.
  server.keepAliveTimeout = 65_000;
  server.on('clientError', answerClientError(config));
  // Off unless asked for: following every connection's framing moves its bytes through JavaScript.
  if (config.readChunkSizes) readChunkSizes(server);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const actual = (server.address() as AddressInfo).port;
  return {
    port: actual,
    serve(app) {
      callback = app.callback();
      for (const waiter of waiting.splice(0)) waiter();
      server.on('connect', answerConnect(config, servedMethods(app)));
      // A listening server's 'error' (an accept that failed: EMFILE) would otherwise end the process.
      server.on('error', (error) => app.context.services.faults.report('http-server', error));
      return running(server, app, `http://${host ?? '127.0.0.1'}:${actual}`, actual);
    },
    close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // Requests waiting for an app that will not come are not answered: their connections are closed.
      server.closeAllConnections();
      return closed;
    },
  };
}

function running(server: Server, app: App, url: string, port: number): RunningServer {
  return {
    server,
    port,
    url,
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
  const methods = new Set(
    Object.values(paths).flatMap((operations) => Object.keys(operations).map((method) => method.toUpperCase())),
  );
  if (methods.has('GET')) methods.add('HEAD');
  return ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'].filter((method) => methods.has(method));
}
