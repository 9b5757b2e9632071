import { serve } from './serve.js';
import { accounts } from './accounts.js';
import { audit } from './audit.js';
import { UsageError } from './options.js';

/** A subcommand: its arguments in, its exit code out. Human output to stderr unless it is the result. */
export type Command = (args: string[]) => Promise<number>;

/** Every subcommand of `finsynth`; each workstream registers its own with one line. */
const commands: Record<string, Command> = {
  serve,
  accounts,
  audit,
};

export async function main(argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  const command = name === undefined ? undefined : commands[name];
  if (!command) {
    process.stderr.write(`usage: finsynth <${Object.keys(commands).join('|')}> [options]\n`);
    return name === undefined || name === '--help' ? 0 : 2;
  }
  try {
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
