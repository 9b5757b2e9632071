// The pool's worker entry is plain JavaScript: worker threads do not inherit the tsx loader that
// bin/finsynth.js registers in the main thread, so each worker registers it before importing the
// TypeScript worker module. Registering again where tsx is already active (mocha --import tsx) is harmless.
import { register } from 'tsx/esm/api';

register();
const { generateChunk, countParentsOf, warmUp } = await import('./worker.ts');

export default generateChunk;
export { countParentsOf, warmUp };
