import { readFile } from 'node:fs/promises';
import { LogClient } from '../core/audit/log/log-client.js';
import { parseVerifierKey } from '../core/audit/log/note.js';
import { readBundle } from '../core/audit/log/read-bundle.js';
import { verifyBundle, type BundleVerification } from '../core/audit/log/verify-bundle.js';
import { verifierKeyOption } from './audit-key.js';

export interface AuditVerifyOptions {
  publicKey?: string;
  checkpoint?: string;
  url?: string;
  key?: string;
}

/**
 * `finsynth audit verify`: checks an export bundle with no server and no database (docs/audit.md); with
 * --checkpoint, also that the bundle's log extends the checkpoint the auditor kept, the consistency proof
 * taken from the bundle or fetched from --url. Prints a line per failure, then a summary; exit code 0 only
 * if everything holds.
 */
export async function auditVerify(bundlePath: string, values: AuditVerifyOptions): Promise<number> {
  const verifier = parseVerifierKey(await verifierKeyOption(values.publicKey, 'audit verify'));
  const [bundle, saved] = await Promise.all([
    readBundle(bundlePath),
    values.checkpoint === undefined ? undefined : readFile(values.checkpoint, 'utf8'),
  ]);
  const client = values.url ? new LogClient(values.url, values.key ?? process.env.FINSYNTH_KEY) : undefined;
  const started = performance.now();
  const report = await verifyBundle(bundle, {
    verifier,
    saved,
    fetchConsistencyProof: client && ((from, to) => client.consistencyProof(from, to)),
  });
  const seconds = (performance.now() - started) / 1000;
  const out = report.failures.map((failure) => `${failure}\n`);
  if (report.checkpoint)
    out.push(
      `bundle of account ${report.accountId}: ${report.events} events against the checkpoint of ` +
        `${report.checkpoint.origin} at ${report.checkpoint.size} events (root ${report.checkpoint.root}), ` +
        `checked in ${seconds.toFixed(2)} s\n`,
    );
  if (report.balance)
    out.push(
      `replayed balance: ${report.balance.credits_available} credits available, ` +
        `${report.balance.credits_reserved} reserved\n`,
    );
  if (report.saved && report.checkpoint) out.push(`${keptRelation(report.saved, report.checkpoint.size)}\n`);
  out.push(
    report.failures.length === 0
      ? 'the bundle holds\n'
      : `the bundle does NOT hold: ${report.failures.length} failure${report.failures.length === 1 ? '' : 's'}\n`,
  );
  process.stdout.write(out.join(''));
  return report.failures.length === 0 ? 0 : 1;
}

/** How the bundle's checkpoint stands to the one the auditor kept, the subject of each sentence named. */
function keptRelation(saved: NonNullable<BundleVerification['saved']>, size: number): string {
  const kept = `the checkpoint you kept (${saved.size} events)`;
  switch (saved.relation) {
    case 'same tree':
      return `the bundle's checkpoint is ${kept}`;
    case 'extended':
      return `the bundle's checkpoint (${size} events) extends ${kept}`;
    case 'older':
      return `the bundle's checkpoint (${size} events) is older than ${kept}, which extends it`;
  }
}
