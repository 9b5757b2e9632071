import type { Command } from 'commander';

/**
 * `finsynth audit`'s own options are the replay's (`--account`, `--data`, `--json`), read before a subcommand
 * only: given there, they would be dropped without a word (`audit --data DIR rebuild-log` checking another
 * store), so they are bad usage instead. A `preSubcommand` hook of the audit command.
 */
export function refuseReplayOptions(audit: Command, subcommand: Command): void {
  const given = Object.keys(audit.opts()).map(flag);
  if (given.length > 0)
    audit.error(
      `${given.join(', ')}: an option of the replay, not of \`audit ${subcommand.name()}\`; ` +
        'give a subcommand its options after its name',
      { exitCode: 2, code: 'finsynth.replayOptionBeforeSubcommand' },
    );
}

/** `--public-key` for the option commander names `publicKey`. */
const flag = (name: string): string => `--${name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`;
