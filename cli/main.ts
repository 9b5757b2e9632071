import { Command, CommanderError, Option } from 'commander';
import { BILLINGS, TIERS } from '../core/accounts/profile.js';
import { ProblemError } from '../core/problems.js';
import { refuseReplayOptions } from './audit.js';
import { HELP, type CommandHelp } from './help.js';
import { UsageError, list, port, wholeNumber } from './options.js';

/**
 * `finsynth <command>`: commander parses every command's arguments (a bad one is exit code 2 before anything
 * loads) and each command's module is loaded only when called, since the service's modules are slow to load and a
 * usage message should not wait for them. Human output goes to stderr unless it is the result.
 */
export async function main(argv: string[]): Promise<number> {
  let exitCode = 0;
  const run =
    <A extends unknown[]>(path: string, action: (...args: A) => Promise<number>) =>
    async (...args: A) => {
      exitCode = await reported(path, () => action(...args));
    };
  const program = described(new Command('finsynth'), HELP.finsynth)
    .usage('<command> [options]')
    .helpCommand('help [command]', 'print the help of a command')
    // A command's options are its own: `audit` and `audit rebuild-log` both have --data.
    .enablePositionalOptions();
  program.configureOutput(outputFor('finsynth', program));

  command(program, 'serve', HELP.serve)
    .addOption(new Option('--port <N>', 'listen on this port (overrides PORT)').argParser(port))
    .option('--data <DIR>', "the embedded store's folder (overrides FINSYNTH_DATA_DIR)")
    .action(run('serve', async (options) => (await import('./serve.js')).serve(options)));

  const accounts = command(program, 'accounts', HELP.accounts);
  command(accounts, 'create', HELP['accounts create'], 'accounts create')
    .addOption(new Option('--tier <T>', "the account's tier").choices(TIERS).makeOptionMandatory())
    .addOption(
      new Option('--credits <N>', "start with exactly N credits (default: the tier's monthly allowance)").argParser(
        wholeNumber(0),
      ),
    )
    .addOption(
      new Option('--billing <B>', 'invoice (billed outside finsynth) or card (fees charged to a payment method)')
        .choices(BILLINGS)
        .default('invoice'),
    )
    .option('--data <DIR>', "the embedded store's folder (overrides FINSYNTH_DATA_DIR)")
    .option('--json', 'print {"account_id", "keys": {"live", "test"}} on stdout and nothing else')
    .action(run('accounts create', async (options) => (await import('./accounts.js')).createAccountCommand(options)));

  // `finsynth audit` alone is the replay; its options are read before a subcommand only, so that
  // `audit rebuild-log --data DIR` gives --data to rebuild-log.
  const audit = command(program, 'audit', HELP.audit)
    .usage('[--account ID] [--data DIR] [--json]')
    .enablePositionalOptions()
    .option('--account <ID>', 'audit one account only')
    .option('--data <DIR>', "the embedded store's folder (overrides FINSYNTH_DATA_DIR)")
    .option('--json', 'print the report as JSON on stdout and nothing else')
    .action(run('audit', async (options) => (await import('./audit-replay.js')).auditReplay(options)))
    .hook('preSubcommand', refuseReplayOptions);
  // The auditor's tools (verify, witness) run with no store and no service: they load none of it.
  command(audit, 'verify', HELP['audit verify'], 'audit verify')
    .argument('<BUNDLE>', 'the bundle from GET /v1/audit/credits/export')
    .usage('BUNDLE --public-key KEY [--checkpoint SAVED] [--url URL] [--key API_KEY]')
    // Checked by the command, which says what the key is when it is missing.
    .option(
      '--public-key <KEY>',
      "the log's verifier key (name+id+key), or a file that holds it: take it from the operator",
    )
    .option('--checkpoint <SAVED>', "a checkpoint (signed note) you kept, e.g. the witness's DIR/checkpoint")
    .option('--url <URL>', 'the service, to fetch a consistency proof the bundle lacks')
    .option('--key <API_KEY>', 'a key with audit:read for --url (default: FINSYNTH_KEY)')
    .action(
      run('audit verify', async (bundle: string, options) =>
        (await import('./audit-verify.js')).auditVerify(bundle, options),
      ),
    );
  command(audit, 'witness', HELP['audit witness'], 'audit witness')
    .usage('--url URL --state DIR [--public-key KEY] [--key API_KEY]')
    .requiredOption('--url <URL>', 'the service (e.g. https://finsynth.example.com)')
    .requiredOption('--state <DIR>', 'where the key and the last checkpoint are kept (made if missing)')
    .option(
      '--public-key <KEY>',
      'the verifier key you were given, or a file that holds it (default: the one kept in DIR; ' +
        "on the first run, the log's own, trusted on first use)",
    )
    .option('--key <API_KEY>', 'a key with audit:read, for consistency proofs (default: FINSYNTH_KEY)')
    .action(run('audit witness', async (options) => (await import('./audit-witness.js')).auditWitness(options)));
  command(audit, 'rebuild-log', HELP['audit rebuild-log'], 'audit rebuild-log')
    .usage('[--check] [--force] [--data DIR] [--json]')
    .addOption(
      new Option(
        '--check',
        'compare and report only; exit code 0 if the stored tree is the one the events give',
      ).conflicts('force'),
    )
    .option('--force', 'rebuild even over contradicted checkpoints, and drop them: every witness will report it')
    .option('--data <DIR>', "the embedded store's folder (overrides FINSYNTH_DATA_DIR)")
    .option('--json', 'print the report as JSON')
    .action(
      run('audit rebuild-log', async (options) => (await import('./audit-rebuild-log.js')).auditRebuildLog(options)),
    );

  command(program, 'generate', HELP.generate)
    .argument('<CONFIG>', 'the generation config (YAML or JSON)')
    .requiredOption('--out <DIR>', 'the folder to write one file per table to (made if missing)')
    .addOption(new Option('--format <F>', "the files' format (default: the config's output.format)").choices(FORMATS))
    .addOption(
      new Option(
        '--compression <C>',
        "text formats: gzip or none; parquet: snappy, zstd, gzip or none (default: the config's output.compression)",
      ).choices(COMPRESSIONS),
    )
    .addOption(new Option('--seed <N>', "the seed (default: the config's, else one drawn)").argParser(wholeNumber(0)))
    .addOption(new Option('--packs <DIR,...>', 'third-party packs to load beside FINSYNTH_PACKS').argParser(list))
    .option('--quiet', 'print nothing but errors')
    .action(
      run('generate', async (config: string, options) => (await import('./generate.js')).generate(config, options)),
    );

  const pack = command(program, 'pack', HELP.pack);
  command(pack, 'new', HELP['pack new'], 'pack new')
    .argument('<NAME>', "the pack's name (the sector of generation requests: a-z, 0-9, _) and its folder")
    .option('--dir <PARENT>', 'make the folder in PARENT (default: the current folder)', '.')
    .action(run('pack new', async (name: string, options) => (await import('./pack-new.js')).packNew(name, options)));
  command(pack, 'test', HELP['pack test'], 'pack test')
    .argument('<DIR>', "the pack's folder (or module)")
    .addOption(new Option('--rows <N>', 'rows per table (default 1500)').argParser(wholeNumber(1, 1_000_000)))
    .addOption(new Option('--seed <N>', 'the seed (default 1234)').argParser(wholeNumber(0)))
    .option('--kit-only', "run the test kit only, not the pack's own tests")
    .action(run('pack test', async (dir: string, options) => (await import('./pack-test.js')).packTest(dir, options)));
  command(pack, 'preview', HELP['pack preview'], 'pack preview')
    .argument('<DIR>', "the pack's folder (or module)")
    .option('--table <T>', 'the table (default: the first one)')
    .addOption(new Option('--rows <N>', 'rows to print').default(20).argParser(wholeNumber(1, 10_000)))
    .addOption(new Option('--seed <N>', 'the seed (default 1)').default(1).argParser(wholeNumber(0)))
    .option('--json', 'print the rows as NDJSON instead of a table')
    .action(
      run('pack preview', async (dir: string, options) =>
        (await import('./pack-preview.js')).packPreview(dir, options),
      ),
    );

  command(program, 'catalog', HELP.catalog)
    .argument('[SECTOR]', 'one sector: its tables')
    .argument('[TABLE]', 'one table of the sector: its columns and options')
    .addOption(new Option('--packs <DIR,...>', 'third-party packs to load beside FINSYNTH_PACKS').argParser(list))
    .option('--json', 'print the catalog as JSON (as GET /v1/catalog answers it)')
    .action(
      run('catalog', async (sector: string | undefined, table: string | undefined, options) =>
        (await import('./catalog.js')).catalog(sector, table, options),
      ),
    );

  try {
    await program.parseAsync(argv, { from: 'user' });
    return exitCode;
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    // Help asked for is done; help shown for a missing subcommand, and every parsing error, is bad usage.
    return error.code === 'commander.helpDisplayed' || error.code === 'commander.version' ? 0 : 2;
  }
}

const FORMATS = ['csv', 'ndjson', 'json', 'parquet'];
const COMPRESSIONS = ['none', 'gzip', 'snappy', 'zstd'];

/** A subcommand of `parent` with its help texts, its errors reported under its full name. */
function command(parent: Command, name: string, help: CommandHelp, path = name): Command {
  const sub = described(parent.command(name), help);
  return sub.configureOutput(outputFor(`finsynth ${path}`, sub));
}

function described(command: Command, { summary, description, after }: CommandHelp): Command {
  command
    .summary(summary)
    // Written over several lines in help.ts; commander wraps it to the terminal's width.
    .description((description ?? summary).replace(/\n/g, ' '))
    .exitOverride()
    .showSuggestionAfterError(true)
    .configureHelp({
      // `usage:` and `--data DIR`, as the help of finsynth's commands has always been written.
      styleTitle: (title) => title.toLowerCase(),
      optionTerm: (option) => option.flags.replace(/<([^>]+)>/g, '$1'),
    })
    .helpOption('-h, --help', 'print this help');
  if (after) command.addHelpText('after', after);
  return command;
}

/** Parsing errors on stderr as `usage: finsynth <command> …` then `finsynth <command>: <what is wrong>`. */
function outputFor(name: string, command: Command) {
  return {
    outputError: (message: string, write: (text: string) => void) =>
      write(`usage: ${name} ${command.usage()}\n${name}: ${message.replace(/^error: /, '')}`),
  };
}

/** Runs a command's action and turns what it throws into the exit code and a message on stderr. */
async function reported(path: string, action: () => Promise<number>): Promise<number> {
  try {
    return await action();
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`finsynth ${path}: ${error.message}\n`);
      return 2;
    }
    const message = error instanceof ProblemError ? error.detail : error instanceof Error ? error.message : error;
    process.stderr.write(`finsynth ${path}: ${String(message)}\n`);
    return 1;
  }
}
