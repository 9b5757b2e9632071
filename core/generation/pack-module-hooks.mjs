// Module resolution hooks for sector packs, registered in every thread that imports a pack (the main thread by the
// pack loader, the load probe and the generation workers by their entries). Here, below the pack host, since the
// generation workers register them too. Plain JavaScript: hooks run in a thread of their own,
// before any TypeScript loader could.
import { register } from 'node:module';

const ROOT = new URL('../../package.json', import.meta.url).href;
const TYPESCRIPT = /\.(ts|tsx|mts)$/;
let registered = false;

/** Registers the hooks below in this thread, once. */
export function registerPackHooks() {
  if (registered) return;
  registered = true;
  register(import.meta.url);
}

/**
 * `finsynth` and `finsynth/<subpath>` resolve to the finsynth that runs, as if imported from its own package, whatever
 * the importing pack has installed: a pack's SDK must be the host's. A TypeScript file that its package would make a
 * CommonJS module (no `"type": "module"`, or no package.json at all) is loaded as the ES module a pack is.
 */
export async function resolve(specifier, context, next) {
  if (specifier === 'finsynth' || specifier.startsWith('finsynth/'))
    return next(specifier, { ...context, parentURL: ROOT });
  const resolved = await next(specifier, context);
  if (
    resolved.url.startsWith('file:') &&
    TYPESCRIPT.test(new URL(resolved.url).pathname) &&
    (resolved.format === 'commonjs' || resolved.format === 'commonjs-typescript' || resolved.format === undefined)
  )
    return { ...resolved, format: 'module' };
  return resolved;
}
