#!/usr/bin/env node
// The published entry point stays plain JavaScript so that `npx finsynth` works without a build step. The
// auditor's tools (audit verify, audit witness) start from a bundle of the command line kept by an earlier run
// (cli/auditor-bundle.ts), with no TypeScript loader to start; every other command, and an auditor's tool whose
// bundle is not kept yet, registers tsx's loader (inherited by piscina's worker threads) and runs from the sources.
import { keptEntryBundle } from '../core/workers/bundle-record.mjs';

const argv = process.argv.slice(2);
const source = new URL('../cli/entry.ts', import.meta.url);
const auditorTool = argv[0] === 'audit' && (argv[1] === 'verify' || argv[1] === 'witness');
let entry = auditorTool ? await keptEntryBundle(source).catch(() => null) : null;
if (!entry) {
  const { register } = await import('tsx/esm/api');
  register();
  // Built for the next run; if it cannot be (no esbuild, no temporary directory), the tool runs from its sources.
  if (auditorTool) entry = await (await import('../cli/auditor-bundle.ts')).auditorBundle().catch(() => null);
}
// A reader that stops early (`finsynth catalog --json | head`) closes the pipe: that ends the command, quietly.
process.stdout.on('error', (error) => {
  if (error.code !== 'EPIPE') throw error;
  process.exit(process.exitCode ?? 0);
});
const { tuneV8, main } = await import((entry ?? source).href);
tuneV8();
process.exitCode = await main(argv);
