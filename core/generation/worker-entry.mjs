// The pool's worker entry is plain JavaScript: worker threads do not inherit the tsx loader that
// bin/finsynth.js registers in the main thread, so each worker registers it before importing the
// TypeScript worker module. Registering again where tsx is already active (mocha --import tsx) is harmless.
// The pack resolution hooks are not inherited either: a pack's `finsynth/sdk` must resolve here as it did at load.
import { register } from 'tsx/esm/api';
import { registerPackHooks } from './pack-module-hooks.mjs';

register();
registerPackHooks();
const { generateChunk, countParentsOf, warmUp } = await import('./worker.ts');

export default generateChunk;
export { countParentsOf, warmUp };
