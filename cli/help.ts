/**
 * What `--help` prints for each command. Kept apart from the commands, which load the whole service:
 * help answers at once.
 */
export const COMMAND_HELP: Record<string, string> = {
  serve: `usage: finsynth serve [--port N] [--data DIR]

Runs the service: the HTTP API on PORT (default 3000) and its background work, on the store the
environment names (the embedded SQLite store under --data or FINSYNTH_DATA_DIR by default). On the first
start with an empty store it opens a local account and prints one live and one test key, once.

options:
  --port N      listen on this port (overrides PORT)
  --data DIR    the embedded store's folder (overrides FINSYNTH_DATA_DIR)
  -h, --help    print this help
`,
  accounts: `usage: finsynth accounts create --tier <free|developer|team|scale> [--credits N]
                               [--billing <invoice|card>] [--data DIR] [--json]

Opens an account on the store the server uses (also while it runs) and prints its id and two keys.

options:
  --tier T        the account's tier
  --credits N     start with exactly N credits (default: the tier's monthly allowance)
  --billing B     invoice (default: billed outside finsynth) or card (fees charged to a payment method)
  --data DIR      the embedded store's folder (overrides FINSYNTH_DATA_DIR)
  --json          print {"account_id", "keys": {"live", "test"}} on stdout and nothing else
  -h, --help      print this help
`,
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

/** `finsynth --help`: the commands and what each does. */
export const MAIN_HELP = `usage: finsynth <command> [options]

commands:
  serve       run the service
  accounts    open an account (accounts create)
  audit       replay the store and verify every balance and hash chain

\`finsynth <command> --help\` describes a command. Exit codes: 0 done, 1 failed or does not hold, 2 bad usage.
`;

/** Whether the arguments ask for help rather than for the command. */
export const asksForHelp = (args: readonly string[]): boolean => args.includes('--help') || args.includes('-h');
