// The pool's worker entry is plain JavaScript: worker threads do not inherit the tsx loader that
// bin/finsynth.js registers in the main thread, so each worker registers it before importing the
// TypeScript worker module. Registering again where tsx is already active (mocha --import tsx) is harmless.
// The pack resolution hooks are not inherited either: a pack's `finsynth/sdk` must resolve here as it did at load.
import { register } from 'tsx/esm/api';
import { registerPackHooks } from './pack-module-hooks.mjs';

register();
registerPackHooks();
// Not awaited at the top level: piscina loads its entry with require() first, and Node 20's require() of a module
// that awaits at its top level fails and can then meet the import() that follows half loaded, a fatal error that
// takes the process down (seen once in the fuzz suite). Each task awaits the module instead.
const worker = import('./worker.ts');

export default async function generateChunk(task) {
  return (await worker).generateChunk(task);
}

export async function countParentsOf(task) {
  return (await worker).countParentsOf(task);
}

export async function warmUp(task) {
  return (await worker).warmUp(task);
}
