// `node --import <this file>`: the pack resolution hooks (core/generation/pack-module-hooks.mjs) in a process that
// finsynth does not start itself, such as the test runner that `finsynth pack test` runs a pack's own tests in.
import { registerPackHooks } from '../generation/pack-module-hooks.mjs';

registerPackHooks();
