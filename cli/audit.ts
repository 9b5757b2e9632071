/**
 * `finsynth audit [verify|witness|rebuild-log] …`: dispatches on its first argument. Each subcommand's module
 * is loaded only when called: verify and witness are the auditor's tools, run with no store and no service,
 * and must start at once; the replay (no subcommand) and rebuild-log open the store.
 */
export async function audit(args: string[]): Promise<number> {
  switch (args[0]) {
    case 'verify':
      return (await import('./audit-verify.js')).auditVerify(args.slice(1));
    case 'witness':
      return (await import('./audit-witness.js')).auditWitness(args.slice(1));
    case 'rebuild-log':
      return (await import('./audit-rebuild-log.js')).auditRebuildLog(args.slice(1));
    default:
      return (await import('./audit-replay.js')).auditReplay(args);
  }
}
