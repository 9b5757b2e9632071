import { LogClient } from '../core/audit/log/log-client.js';
import { witness } from '../core/audit/log/witness.js';
import { verifierKeyOption } from './audit-key.js';
import { UsageError, parseOptions } from './options.js';

const USAGE = 'usage: finsynth audit witness --url URL --state DIR [--public-key KEY] [--key API_KEY]';

/**
 * `finsynth audit witness`: what an auditor runs on a machine of their own, from cron: keeps the log's latest
 * checkpoint in DIR once it has verified that it extends the one kept before. Exit code 0 when it does; 1 on
 * a fork, a rewrite, a checkpoint that does not verify, or a log it cannot reach, each said on stderr.
 */
export async function auditWitness(args: string[]): Promise<number> {
  const { values, positionals } = parseOptions(args, {
    url: { type: 'string' },
    state: { type: 'string' },
    'public-key': { type: 'string' },
    key: { type: 'string' },
  });
  if (positionals.length > 0 || !values.url || !values.state) throw new UsageError(USAGE);
  const publicKey =
    values['public-key'] === undefined ? undefined : await verifierKeyOption(values['public-key'], 'audit witness');
  const result = await witness({
    client: new LogClient(values.url, values.key ?? process.env.FINSYNTH_KEY),
    stateDir: values.state,
    publicKey,
  });
  (result.holds ? process.stdout : process.stderr).write(result.lines.map((line) => `${line}\n`).join(''));
  return result.holds ? 0 : 1;
}
