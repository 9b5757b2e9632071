import { resolve } from 'node:path';
import { InvalidArgumentError } from 'commander';
import { loadConfig, type Config } from '../core/settings/settings.js';

/** Thrown for a usage error: the CLI prints the message and exits with 2. */
export class UsageError extends Error {}

/** The configuration from the environment (README, Configuration), with `--data` and `--port` overriding it. */
export function configFrom(values: { data?: string | boolean; port?: string | boolean | number }): Config {
  const config = loadConfig(process.env, typeof values.data === 'string' ? { dataDir: resolve(values.data) } : {});
  if (typeof values.port === 'number') config.port = values.port;
  else if (typeof values.port === 'string') config.port = port(values.port);
  return config;
}

/*
 * Parsers of option values, for commander: a value that does not fit is a usage error (exit code 2) naming
 * the option, before the command loads anything.
 */

export function port(value: string): number {
  const parsed = Number(value);
  if (!/^\d+$/.test(value) || parsed > 65535) throw new InvalidArgumentError('It must be a port number (0 to 65535).');
  return parsed;
}

/** A whole number from `min` on (credits, seeds, rows). */
export function wholeNumber(min: number, max = Number.MAX_SAFE_INTEGER) {
  return (value: string): number => {
    const parsed = Number(value);
    if (!/^\d+$/.test(value) || parsed < min || parsed > max)
      throw new InvalidArgumentError(`It must be a whole number from ${min} to ${max}.`);
    return parsed;
  };
}

/** A comma-separated list (`--packs a,b`), added to what earlier uses of the option gave. */
export function list(value: string, previous: string[] = []): string[] {
  return [
    ...previous,
    ...value
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean),
  ];
}
