import { once } from 'node:events';
import { pino } from 'pino';
import { collectDefaultMetrics } from 'prom-client';
import { createServices, type Services } from '../core/services.js';
import { createAccount } from '../core/accounts/create-account.js';
import { createApp } from '../api/app.js';
import { listen } from '../api/server.js';
import { configFrom, parseOptions } from './options.js';

/** The tier of the account opened on first start: the operator's own, so its limits stay out of the way. */
const LOCAL_ACCOUNT_TIER = 'scale';

/**
 * `finsynth serve [--port N] [--data DIR]` (and `npm start`): serves until SIGTERM or SIGINT, then
 * drains (readiness fails, open requests finish, new connections are refused) and closes the store.
 */
export async function serve(args: string[]): Promise<number> {
  const { values } = parseOptions(args, { port: { type: 'string' }, data: { type: 'string' } });
  const config = configFrom(values);
  // Asynchronous writes keep logging off the request path; the buffer is flushed at shutdown.
  const logger = pino({ level: config.logLevel }, pino.destination({ sync: false }));
  const services = await createServices(config, { logger });
  collectDefaultMetrics({ register: services.metrics });
  await openLocalAccountOnFirstStart(services);
  const app = createApp(services, { logger });
  const server = await listen(app, config.port);
  logger.info({ port: server.port, data_dir: config.dataDir, store: services.store.name }, 'finsynth is serving');

  const signal = await Promise.race([once(process, 'SIGTERM'), once(process, 'SIGINT')]);
  logger.info({ signal }, 'shutting down: draining requests');
  await server.close();
  await services.close();
  logger.info('stopped');
  logger.flush();
  return 0;
}

/** An empty store means a fresh install: give its operator an account and keys to start with, once. */
async function openLocalAccountOnFirstStart(services: Services): Promise<void> {
  if ((await services.store.headPosition()) !== 0) return;
  const { account_id, keys, position } = await createAccount(services, { tier: LOCAL_ACCOUNT_TIER });
  await services.projections.waitFor(position);
  process.stdout.write(
    `First start with an empty store: opened the local account ${account_id} (${LOCAL_ACCOUNT_TIER} tier).\n` +
      `  live key: ${keys.live}\n  test key: ${keys.test}\n` +
      'These keys are shown this once; keep them. `npx finsynth accounts create` opens more accounts.\n',
  );
}
