import { LogClient } from '../core/audit/log/log-client.js';
import { witness } from '../core/audit/log/witness.js';
import { verifierKeyOption } from './audit-key.js';

export interface AuditWitnessOptions {
  url: string;
  state: string;
  publicKey?: string;
  key?: string;
}

/**
 * `finsynth audit witness`: what an auditor runs on a machine of their own, from cron: keeps the log's latest
 * checkpoint in DIR once it has verified that it extends the one kept before. Exit code 0 when it does; 1 on
 * a fork, a rewrite, a checkpoint that does not verify, or a log it cannot reach, each said on stderr.
 */
export async function auditWitness(values: AuditWitnessOptions): Promise<number> {
  const publicKey =
    values.publicKey === undefined ? undefined : await verifierKeyOption(values.publicKey, 'audit witness');
  const result = await witness({
    client: new LogClient(values.url, values.key ?? process.env.FINSYNTH_KEY),
    stateDir: values.state,
    publicKey,
  });
  (result.holds ? process.stdout : process.stderr).write(result.lines.map((line) => `${line}\n`).join(''));
  return result.holds ? 0 : 1;
}
