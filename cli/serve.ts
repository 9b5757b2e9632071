import { once } from 'node:events';
import { pino } from 'pino';
import { collectDefaultMetrics } from 'prom-client';
import { createServices, type Services } from '../core/services.js';
import { createApp } from '../api/app.js';
import { listen } from '../api/server.js';
import { openLocalAccountOnFirstStart } from './first-start.js';
import { configFrom, parseOptions } from './options.js';

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
  const firstStart = await openLocalAccountOnFirstStart(services);
  if (firstStart) process.stdout.write(firstStart);
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
