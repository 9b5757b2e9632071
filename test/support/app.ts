import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, type Config } from '../../core/settings/settings.js';
import type { Clock } from '../../core/clock.js';
import { createServices, type ServiceOverrides, type Services } from '../../core/services/services.js';
import { createAccount } from '../../core/accounts/create-account.js';
import type { Billing, Tier } from '../../core/accounts/profile.js';
import { createApp, type App } from '../../api/app.js';
import type { RouteGroup } from '../../api/http/route.js';
import type { Logger } from 'pino';
import { listen, type RunningServer } from '../../api/server.js';
import type { JsonBody } from './json-body.js';

export interface TestApp {
  url: string;
  app: App;
  services: Services;
  config: Config;
  server: RunningServer;
  /** Stops the server and the services, and removes the data directory. */
  close(): Promise<void>;
}

export interface TestAppOptions {
  /** Overrides of the configuration; the environment is not read (no postgres, no redis unless given). */
  config?: Partial<Config>;
  clock?: Clock;
  /** Reuse a data directory (restart tests, several instances); a fresh temporary one otherwise. */
  dataDir?: string;
  /** Route groups to serve instead of the app's own (tests of the pipeline itself). */
  groups?: readonly RouteGroup[];
  /** Where the app logs; silent otherwise. */
  logger?: Logger;
  /** Parts of the services to replace (a payment provider, a pricing); `clock` above wins over one here. */
  services?: ServiceOverrides;
}

/** The real app on an ephemeral port, with the embedded store in a fresh temporary directory. */
export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'finsynth-test-')));
  // A folder made here is removed however the app ends: failing to start, or failing to close.
  const removeDataDir = () => (options.dataDir ? Promise.resolve() : rm(dataDir, { recursive: true, force: true }));
  let services: Services | undefined;
  try {
    const config = loadConfig({}, { dataDir, port: 0, logLevel: 'silent', poolSize: 2, ...options.config });
    // No warm-up of the pool: it costs each app seconds of CPU (the pool's own tests and the outside-in suites warm).
    services = await createServices(config, {
      warmPool: false,
      ...options.services,
      clock: options.clock ?? options.services?.clock,
    });
    const app = createApp(services, { groups: options.groups, logger: options.logger });
    const server = await listen(app, 0);
    const started = services;
    return {
      url: server.url,
      app,
      services: started,
      config,
      server,
      async close() {
        try {
          await server.close(1000);
        } finally {
          try {
            await started.close();
          } finally {
            await removeDataDir();
          }
        }
      },
    };
  } catch (error) {
    await services?.close().catch(() => undefined);
    await removeDataDir();
    throw error;
  }
}

export interface TestAccount {
  accountId: string;
  live: string;
  test: string;
}

/**
 * Opens an account as the operator does (`finsynth accounts create`), and waits until the instance's
 * projections know its keys. Scale tier by default, so that ordinary tests never meet the rate limit;
 * billed by card unless `billing` says `invoice` (as `finsynth accounts create` opens them).
 */
export async function openAccount(
  testApp: Pick<TestApp, 'services'>,
  options: { tier?: Tier; credits?: number; billing?: Billing } = {},
): Promise<TestAccount> {
  const created = await createAccount(testApp.services, {
    tier: options.tier ?? 'scale',
    credits: options.credits,
    billing: options.billing,
  });
  await testApp.services.projections.waitFor(created.position);
  return { accountId: created.account_id, live: created.keys.live, test: created.keys.test };
}

export interface TestResponse<Body = JsonBody> {
  status: number;
  headers: Headers;
  body: Body;
  text: string;
}

export interface RequestOptions {
  key?: string;
  /** A value to send as JSON, or a string / Buffer sent as is. */
  body?: unknown;
  headers?: Record<string, string>;
}

/** `application/json` and `*+json` (problem details); not NDJSON, which is many documents. */
const isJson = (contentType: string | null | undefined): boolean =>
  /^application\/(?:[\w.-]+\+)?json\s*(?:;|$)/.test(contentType ?? '');

/** One HTTP request to the app; JSON bodies (problem details included) are parsed into `body`. */
export async function request<Body = JsonBody>(
  testApp: Pick<TestApp, 'url'>,
  method: string,
  path: string,
  options: RequestOptions = {},
): Promise<TestResponse<Body>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  let body: string | Buffer | undefined;
  if (typeof options.body === 'string' || Buffer.isBuffer(options.body)) body = options.body;
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(`${testApp.url}${path}`, { method, headers, body });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: isJson(response.headers.get('content-type')) && text ? JSON.parse(text) : text,
    text,
  };
}

/**
 * Bytes on a socket, for what fetch refuses to send (control characters in headers, broken framing).
 * The request should ask for `Connection: close`; the answer is parsed into status, headers and body.
 */
export async function rawRequest(
  testApp: Pick<TestApp, 'server'>,
  bytes: string | Buffer,
): Promise<{ status: number; headers: Record<string, string>; body: JsonBody }> {
  const socket = connect(testApp.server.port, '127.0.0.1');
  socket.end(bytes);
  const chunks: Buffer[] = [];
  for await (const chunk of socket) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  const [head = '', ...rest] = text.split('\r\n\r\n');
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers = Object.fromEntries(
    lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
  );
  const body = rest.join('\r\n\r\n');
  return {
    status: Number(statusLine.split(' ')[1]),
    headers,
    body: isJson(headers['content-type']) ? JSON.parse(body) : body,
  };
}
