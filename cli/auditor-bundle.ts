import { fileURLToPath } from 'node:url';
import { keptOrBuilt } from '../core/workers/bundled-worker.js';

/** The command line's entry, as bin/finsynth.js imports it. */
const CLI_ENTRY = new URL('./entry.ts', import.meta.url);
const MAIN = fileURLToPath(new URL('./main.ts', import.meta.url));
/** The auditor's tools: all a bundle of the command line holds of its commands. */
const AUDITOR_COMMANDS = ['./audit-verify.js', './audit-witness.js'];

/**
 * The command line bundled as plain JavaScript for the auditor's tools, kept between processes
 * (core/workers/bundled-worker.ts): they run with no store and no service, and an auditor times them, so they
 * start without the TypeScript loader. Every other command is imported from its source, and runs as it always
 * does, with the loader.
 */
export const auditorBundle = (): Promise<URL> =>
  keptOrBuilt(CLI_ENTRY, {
    fromSource: (specifier, importer) => importer === MAIN && !AUDITOR_COMMANDS.includes(specifier),
  });
