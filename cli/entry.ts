/** What bin/finsynth.js starts, from the sources or from the auditor's bundle (cli/auditor-bundle.ts). */
export { main } from './main.js';
export { tuneV8 } from '../core/runtime/tune-v8.js';
