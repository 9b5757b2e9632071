import { resolve } from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { loadConfig, type Config } from '../core/settings/settings.js';

/** Thrown for a usage error: the CLI prints the message and exits with 2. */
export class UsageError extends Error {}

/** Strict parsing: an unknown or malformed option is a usage error, not silently ignored. */
export function parseOptions<const Options extends NonNullable<ParseArgsConfig['options']>>(
  args: string[],
  options: Options,
) {
  try {
    return parseArgs({ args, options, strict: true, allowPositionals: true });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/** The configuration from the environment (README, Configuration), with `--data` and `--port` overriding it. */
export function configFrom(values: { data?: string | boolean; port?: string | boolean }): Config {
  const config = loadConfig(process.env, typeof values.data === 'string' ? { dataDir: resolve(values.data) } : {});
  if (typeof values.port === 'string') {
    const port = Number(values.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535)
      throw new UsageError(`--port must be a port number, not "${values.port}"`);
    config.port = port;
  }
  return config;
}
