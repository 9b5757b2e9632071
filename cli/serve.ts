import { once } from 'node:events';
import { pino } from 'pino';
import { collectDefaultMetrics } from 'prom-client';
import { createServices } from '../core/services/services.js';
import { reportUnhandledRejections } from '../core/faults/unexpected-errors.js';
import { createApp } from '../api/app.js';
import { bind } from '../api/server.js';
import { openLocalAccountOnFirstStart } from './first-start.js';
import { configFrom } from './options.js';

export interface ServeOptions {
  port?: number;
  data?: string;
}

/**
 * `finsynth serve [--port N] [--data DIR]` (and `npm start`): serves until SIGTERM or SIGINT, then
 * drains (readiness fails, open requests finish, new connections are refused) and closes the store.
 */
export async function serve(options: ServeOptions): Promise<number> {
  const config = configFrom(options);
  // The port first: a start that cannot serve stops before it opens the store, an account or prints keys.
  const bound = await bind(config, config.port).catch((error: NodeJS.ErrnoException) => {
    throw new Error(portRefusal(config.port, error));
  });
  // Asynchronous writes keep logging off the request path; the buffer is flushed at shutdown.
  const logger = pino({ level: config.logLevel }, pino.destination({ sync: false }));
  const services = await createServices(config, { logger }).catch(async (error: unknown) => {
    await bound.close();
    throw error;
  });
  collectDefaultMetrics({ register: services.metrics });
  const firstStart = await openLocalAccountOnFirstStart(services).catch(async (error: unknown) => {
    await bound.close();
    await services.close();
    throw error;
  });
  if (firstStart) process.stdout.write(firstStart);
  // Requests that reached the port meanwhile are answered from here on.
  const server = bound.serve(createApp(services, { logger }));
  const stopReporting = reportUnhandledRejections(services.faults);
  logger.info({ port: server.port, data_dir: config.dataDir, store: services.store.name }, 'finsynth is serving');

  const signal = await Promise.race([once(process, 'SIGTERM'), once(process, 'SIGINT')]);
  logger.info({ signal }, 'shutting down: draining requests');
  await server.close();
  await services.close();
  stopReporting();
  logger.info('stopped');
  logger.flush();
  return 0;
}

/** Why the port cannot be served, and what to do, for the operator. */
function portRefusal(port: number, error: NodeJS.ErrnoException): string {
  if (error.code === 'EADDRINUSE')
    return (
      `port ${port} is already in use (another finsynth, or another program); ` +
      `stop it, or serve on another port with --port or PORT`
    );
  if (error.code === 'EACCES')
    return (
      `port ${port} may not be used by this user (ports below 1024 need privileges); ` +
      `serve on another port with --port or PORT`
    );
  return `cannot serve on port ${port}: ${error.message}`;
}
