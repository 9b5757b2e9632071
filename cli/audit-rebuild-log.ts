import { rebuildLog, type RebuildReport } from '../core/audit/log/rebuild.js';
import { treeStorageFor } from '../core/audit/log/tree-storage-for-store.js';
import { openEventStore } from '../core/store/open-store.js';
import { configFrom } from './options.js';

export interface AuditRebuildLogOptions {
  /** Never with force: commander refuses the two together. */
  check?: boolean;
  force?: boolean;
  data?: string;
  json?: boolean;
}

/**
 * `finsynth audit rebuild-log`: builds the audit log's tree again from every event and compares it with the
 * stored one and with the signed checkpoints kept (docs/audit.md). With --check it only reports: exit code 0
 * if the stored tree is the one the events give. Otherwise it writes the rebuilt tree, unless a signed
 * checkpoint contradicts the events (exit code 1: they were changed after they were logged), which --force
 * overrides.
 */
export async function auditRebuildLog(values: AuditRebuildLogOptions): Promise<number> {
  const check = values.check === true;
  const force = values.force === true;
  const store = await openEventStore(configFrom(values));
  try {
    const report = await rebuildLog(store, treeStorageFor(store), { check, force });
    process.stdout.write(values.json ? `${JSON.stringify(report)}\n` : describe(report, check));
    if (check) return report.matches ? 0 : 1;
    return report.contradicted.length > 0 && !force ? 1 : 0;
  } finally {
    await store.close();
  }
}

function describe(report: RebuildReport, check: boolean): string {
  const lines = [
    `the events give a tree of ${report.size} events, root ${report.root}; ` +
      `the stored tree has ${report.stored.size}, root ${report.stored.root}`,
  ];
  for (const difference of report.differences)
    lines.push(
      `DIFFERS      leaf ${difference.leaf_index}` +
        (difference.position === null ? ' (no event any more)' : ` (position ${difference.position})`) +
        `: stored ${difference.stored ?? 'nothing'}, the event gives ${difference.computed ?? 'nothing'}`,
    );
  if (report.differing > report.differences.length)
    lines.push(`…and ${report.differing - report.differences.length} more leaves differ`);
  for (const checkpoint of report.contradicted)
    lines.push(
      `CONTRADICTS  the signed checkpoint of ${checkpoint.size} events (root ${checkpoint.kept}): the events give ` +
        (checkpoint.rebuilt === null ? 'fewer events than that' : `root ${checkpoint.rebuilt}`) +
        ' — events were changed or removed after they were logged, and that checkpoint may have been published',
    );
  if (report.matches) lines.push('the stored tree is the one the events give');
  else if (check) lines.push('the stored tree is NOT the one the events give');
  else if (report.rebuilt)
    lines.push(
      report.contradicted.length > 0
        ? 'REBUILT anyway (--force), and the contradicted checkpoints dropped: the log will sign a history that ' +
            'contradicts what it signed before, and every witness that kept one will report it'
        : 'rebuilt: the stored tree is now the one the events give',
    );
  else
    lines.push(
      'NOT rebuilt: signed checkpoints contradict the events. Restore the events from a backup; ' +
        '--force rebuilds anyway, and every witness will report it',
    );
  return `${lines.join('\n')}\n`;
}
