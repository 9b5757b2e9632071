import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadPacks, refusalMessage } from '../core/packs/loader.js';
import type { PackRegistry } from '../core/packs/registry.js';
import { UsageError } from './options.js';

/**
 * The pack in `dir` (a folder or module), loaded alone as the service loads third-party packs. A path that does
 * not exist is bad usage (exit code 2); a pack that is refused is a failure (exit code 1) naming its file, line and
 * cause.
 */
export async function loadOnePack(dir: string): Promise<{ registry: PackRegistry; name: string }> {
  const path = resolve(dir);
  if (!existsSync(path)) throw new UsageError(`no pack at ${dir}: no such file or folder`);
  const registry = await loadPacks({ builtinDir: '/nonexistent', extra: [path] });
  const [refused] = registry.refused;
  if (refused) throw new Error(refusalMessage(refused));
  return { registry, name: registry.names()[0] };
}
