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
  audit: {
    summary: 'replay the store and verify every balance and hash chain (and: verify, witness, rebuild-log)',
    description: `Replays the store from its first event and checks every hash chain, and every account's balance, usage
and billing against the projections. Exit code 0 only if all holds; 1 naming each difference.`,
    after: `
  finsynth audit verify BUNDLE --public-key KEY [--checkpoint SAVED] [--url URL] [--key API_KEY]
  finsynth audit witness --url URL --state DIR [--public-key KEY] [--key API_KEY]
  finsynth audit rebuild-log [--check] [--force] [--data DIR] [--json]

\`finsynth audit <command> --help\` describes each. The audit log (a Merkle tree over every event, signed
checkpoints, proofs) is described in docs/audit.md.
`,
  },
  'audit verify': {
    summary: "check an export bundle offline: no server, no database (the auditor's)",
    description: `Verifies a bundle from GET /v1/audit/credits/export with no server and no database: the checkpoint's
signature, every event's hash and its place in the account's hash chain, every inclusion proof, and the
balance replayed from the events against the one the service showed. With --checkpoint, a checkpoint you
kept from before: the bundle's log must be that tree or extend it (the consistency proof is taken from the
bundle when it was exported with ?consistency_from=SIZE, else fetched from --url). Prints a line per failure.`,
    after: `
Exit code 0 only if everything holds; 1 otherwise; 2 on bad usage.
`,
  },
  'audit witness': {
    summary: "keep the log's checkpoint, and fail on a fork or a rewrite (the auditor's, from cron)",
    description: `What an auditor runs on a machine of their own, e.g. from cron: fetches the log's latest checkpoint,
verifies its signature and that it extends the checkpoint kept in DIR from the last run (a consistency
proof), then keeps it. A checkpoint of the kept size with another root is a fork; one that does not extend
the kept one is a rewrite: both are reported on stderr, the two notes kept in DIR/evidence/, and the kept
checkpoint is not replaced.`,
    after: `
Exit code 0 when the log only grew; 1 otherwise (or when it cannot be reached); 2 on bad usage.

example (a crontab line: every ten minutes):
  */10 * * * * FINSYNTH_KEY=svc_live_… npx finsynth audit witness --url https://finsynth.example.com --state ~/w
`,
  },
  'audit rebuild-log': {
    summary: "check the audit log's Merkle tree against the events, and rebuild it (the operator's)",
    description: `Builds the audit log's Merkle tree again from every event, compares it leaf by leaf with the stored
tree and with the signed checkpoints kept, and writes it in place of the stored one. It refuses (exit code 1)
when a signed checkpoint contradicts the events: they were changed after they were logged, and the
checkpoint may be in the hands of auditors; restore the events from a backup instead.`,
    after: `
Exit code 0 when rebuilt (with --check: when the stored tree is the one the events give); 1 otherwise; 2 on
bad usage.
`,
  },
  generate: {
    summary: 'generate a dataset from a config file, locally: no server, no store, no credits',
    description: `Generates the dataset a YAML (or JSON) generation config describes, with the engine and worker pool of
the service, and writes one file per table to --out: the same bytes as a job of the service for the same
config and seed. Nothing is stored and nothing is charged. Progress goes to stderr (a bar on a terminal).`,
    after: `
The config is the format POST /v1/jobs takes (docs/configs.md); --format, --compression and --seed override
its output and seed. A config without a seed gets one, printed so that the run can be repeated. Each table
is written to <table>.<format>[.gz].part and renamed when complete: Ctrl-C leaves no partial file under a
final name. A config with problems prints each with its line and column, and exits 2. The conformance report
is written too, _report.json (the bytes a job stores) and _report.html, unless the config says report: false.

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
