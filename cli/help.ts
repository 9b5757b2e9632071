/**
 * What `--help` prints beyond the usage and options commander lists from each command's definition: a
 * command's description, and the prose after its options. Kept apart from the commands, which load the whole
 * service: help answers at once.
 */
export interface CommandHelp {
  /** One line, for the list of commands. */
  summary: string;
  /** What `<command> --help` prints under its usage line; the summary when absent. */
  description?: string;
  /** Printed after the options: examples, exit codes, where to read more. */
  after?: string;
}

export const HELP = {
  finsynth: {
    summary: 'synthetic financial datasets: the service, local generation, sector packs',
    after: `
\`finsynth <command> --help\` describes a command. Exit codes: 0 done, 1 failed or does not hold, 2 bad usage.
`,
  },
  serve: {
    summary: 'run the service',
    description: `Runs the service: the HTTP API on PORT (default 3000) and its background work, on the store the
environment names (the embedded SQLite store under --data or FINSYNTH_DATA_DIR by default). On the first
start with an empty store it opens a local account and prints one live and one test key, once.`,
  },
  accounts: {
    summary: 'open an account (accounts create)',
    description: 'Opens accounts on the store the server uses.',
    after: `
  finsynth accounts create --tier <free|developer|team|scale> [--credits N] [--billing <invoice|card>]
                           [--data DIR] [--json]

\`finsynth accounts create --help\` describes each option.
`,
  },
  'accounts create': {
    summary: 'open an account and print its id and two keys',
    description: 'Opens an account on the store the server uses (also while it runs) and prints its id and two keys.',
  },
  audit: { summary: 'replay the store and verify every balance and hash chain' },
  generate: {
    summary: 'generate a dataset from a config file, locally: no server, no store, no credits',
    description: `Generates the dataset a YAML (or JSON) generation config describes, with the engine and worker pool of
the service, and writes one file per table to --out: the same bytes as a job of the service for the same
config and seed. Nothing is stored and nothing is charged. Progress goes to stderr (a bar on a terminal).`,
    after: `
The config is the format POST /v1/jobs takes (docs/configs.md); --format, --compression and --seed override
its output and seed. A config without a seed gets one, printed so that the run can be repeated. Each table
is written to <table>.<format>[.gz].part and renamed when complete: Ctrl-C leaves no partial file under a
final name. A config with problems prints each with its line and column, and exits 2.

example:
  finsynth generate cards.yaml --out data/ --format csv --seed 42
`,
  },
  pack: {
    summary: 'write, test and preview a sector pack (pack new|test|preview)',
    description: 'Tools for authors of sector packs (docs/pack-author-guide.md).',
  },
  'pack new': {
    summary: 'scaffold a third-party sector pack in a new folder',
    description: `Writes a new sector pack in the folder NAME: package.json (finsynth as its peer dependency), index.ts
with one table, a test that runs the pack test kit, a tsconfig.json and a README.`,
    after: `
Then: finsynth pack test NAME, finsynth pack preview NAME, and finsynth generate --packs NAME.
`,
  },
  'pack test': {
    summary: "run the pack test kit on a pack, then the pack's own tests",
    description: `Loads the pack in DIR as the service does and runs the pack test kit on it (manifest, default plans,
every table in every format, column types, references, the same bytes with 1 and 4 workers), then the
pack's own tests (*.test.ts, *.test.mjs, *.test.js under DIR, outside node_modules) with node's test runner,
TypeScript included: nothing needs to be installed in the pack's folder.`,
  },
  'pack preview': {
    summary: "print a few rows of a pack's table as a table",
    description: "Generates a few rows of one of the pack's tables and prints them as a table in the terminal.",
  },
  catalog: {
    summary: 'print the catalog of the installed sector packs',
    description: `Prints the sectors of the installed packs (the built-in ones, FINSYNTH_PACKS and --packs), one
sector's tables, or one table's columns: what GET /v1/catalog answers, from this machine's packs.`,
  },
} satisfies Record<string, CommandHelp>;

/**
 * What \`--help\` prints for commands whose arguments reach them unparsed (\`finsynth audit ...\`). The audit
 * entry belongs to the audit command.
 */
export const COMMAND_HELP: Record<string, string> = {
  audit: `usage: finsynth audit [--account ID] [--data DIR] [--json]

Replays the store from its first event and checks every hash chain, and every account's balance, usage
and billing against the projections. Exit code 0 only if all holds; 1 naming each difference.

options:
  --account ID    audit one account only
  --data DIR      the embedded store's folder (overrides FINSYNTH_DATA_DIR)
  --json          print the report as JSON on stdout and nothing else
  -h, --help      print this help
`,
};

/** Whether the arguments ask for help rather than for the command. */
export const asksForHelp = (args: readonly string[]): boolean => args.includes('--help') || args.includes('-h');
