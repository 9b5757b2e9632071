import { COMMAND_HELP, MAIN_HELP, asksForHelp } from './help.js';
import { UsageError } from './options.js';

/** A subcommand: its arguments in, its exit code out. Human output to stderr unless it is the result. */
export type Command = (args: string[]) => Promise<number>;

/**
 * Every subcommand of `finsynth`, each loaded only when called: the service's modules are slow to load, and a usage
 * message should not wait for them.
 */
const commands: Record<string, () => Promise<Command>> = {
  serve: async () => (await import('./serve.js')).serve,
  accounts: async () => (await import('./accounts.js')).accounts,
  audit: async () => (await import('./audit.js')).audit,
};

export async function main(argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  const load = name === undefined ? undefined : commands[name];
  if (!load) {
    const helped = name === undefined || asksForHelp([name]);
    (helped ? process.stdout : process.stderr).write(MAIN_HELP);
    return helped ? 0 : 2;
  }
  if (asksForHelp(args)) {
    process.stdout.write(COMMAND_HELP[name]);
    return 0;
  }
  try {
    const command = await load();
    return await command(args);
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`finsynth ${name}: ${error.message}\n`);
      return 2;
    }
    process.stderr.write(`finsynth ${name}: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}
