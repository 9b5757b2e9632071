import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { checkManifest } from './manifest.js';
import { probeModules, type ProbeRefusal } from './module-probe.js';
import { describeLoadFailure, failureReason } from './load-error.js';
import { registerPackHooks } from '../generation/pack-module-hooks.mjs';
import { PackRegistry, type LoadedPack, type RefusedPack } from './registry.js';
import type { PackDefinition } from './sdk.js';

/**
 * Finds and loads sector packs: the built-ins (each directory of plugins/), then the third-party packs
 * the configuration lists (a directory, or the name of an npm package installed beside the service).
 * A pack that cannot be imported, does not finish loading (each module is first loaded in a short-lived
 * worker thread with a time limit, see module-probe.ts), fails its manifest, or reuses a loaded pack's
 * name is refused with a message naming it and the reasons; the others load. The packs shipped in plugins/
 * are tested with finsynth and not probed: the probe's worker cost every start a few hundred milliseconds.
 */
export const BUILTIN_PACKS_DIR = fileURLToPath(new URL('../../plugins/', import.meta.url));

const ENTRY_FILES = ['index.ts', 'index.mts', 'index.mjs', 'index.js'];

export interface LoadPacksOptions {
  /** Directory holding one directory per built-in pack. */
  builtinDir?: string;
  /** Third-party packs: directories or npm package names (config.packs). */
  extra?: readonly string[];
  /** Time a pack module has to load (probed in a worker thread first); a module that takes longer is refused. */
  loadTimeoutMs?: number;
}

const LOAD_TIMEOUT_MS = 20_000;

export async function loadPacks({
  builtinDir = BUILTIN_PACKS_DIR,
  extra = [],
  loadTimeoutMs = LOAD_TIMEOUT_MS,
}: LoadPacksOptions = {}): Promise<PackRegistry> {
  // A pack's `finsynth/sdk` is this finsynth's, and its TypeScript an ES module, whatever its folder holds.
  registerPackHooks();
  const shipped = resolve(builtinDir) === resolve(BUILTIN_PACKS_DIR);
  const sources: { source: string; probe: boolean; locate: () => string }[] = [
    ...builtinDirectories(builtinDir).map((dir) => ({
      source: `builtin:${dir.split('/').pop()}`,
      probe: !shipped,
      locate: () => directoryEntry(dir),
    })),
    ...extra.map((entry) => ({ source: entry, probe: true, locate: () => locateThirdParty(entry) })),
  ];
  const located = sources.map(
    ({
      source,
      probe,
      locate,
    }): { source: string; probe: boolean; url: string } | { source: string; reason: string } => {
      try {
        return { source, probe, url: locate() };
      } catch (error) {
        return { source, reason: `its module cannot be loaded: ${(error as Error).message.split('\n')[0]}` };
      }
    },
  );
  const probed = await probeModules(
    located.flatMap((entry) => ('url' in entry && entry.probe ? [entry.url] : [])),
    { timeoutMs: loadTimeoutMs },
  );
  let next = 0;
  const loaded: LoadedPack[] = [];
  const refused: RefusedPack[] = [];
  for (const entry of located) {
    const { source } = entry;
    const outcome =
      'url' in entry
        ? await loadOne(source, entry.url, entry.probe ? probed[next++] : null)
        : { source, name: fallbackName(source), file: null, line: null, reasons: [entry.reason] };
    if ('reasons' in outcome) {
      refused.push(outcome);
      continue;
    }
    const clash = loaded.find((pack) => pack.definition.name === outcome.definition.name);
    if (clash)
      refused.push({
        source,
        name: outcome.definition.name,
        reasons: [`a pack named "${outcome.definition.name}" is already loaded from ${clash.source}`],
      });
    else loaded.push(outcome);
  }
  return new PackRegistry(loaded, refused);
}

/** The message an operator reads for a refused pack. */
export function refusalMessage(refused: RefusedPack): string {
  return (
    `sector pack ${refused.name ? `"${refused.name}" ` : ''}from ${refused.source} refused: ` +
    `${refused.reasons.join('; ')}`
  );
}

/** A pack module the probe loaded (`probed` null) is imported here and checked; else refused with its reason. */
async function loadOne(
  source: string,
  moduleUrl: string,
  probed: ProbeRefusal | null,
): Promise<LoadedPack | RefusedPack> {
  const entryFile = moduleUrl.startsWith('file:') ? fileURLToPath(moduleUrl) : null;
  if (probed)
    return { source, name: fallbackName(source), file: probed.file, line: probed.line, reasons: [probed.reason] };
  let definition: unknown;
  try {
    const imported = (await import(moduleUrl)) as { default?: unknown };
    definition = imported.default;
  } catch (error) {
    const failure = describeLoadFailure(error, moduleUrl);
    return {
      source,
      name: fallbackName(source),
      file: failure.file,
      line: failure.line,
      reasons: [`its module cannot be loaded: ${failureReason(failure)}`],
    };
  }
  if (definition === undefined)
    return {
      source,
      name: fallbackName(source),
      file: entryFile,
      line: null,
      reasons: ['its module has no default export (export default definePack({...}))'],
    };
  const named = (definition as { name?: unknown })?.name;
  const name = typeof named === 'string' ? named : fallbackName(source);
  const reasons = checkManifest(definition);
  if (reasons.length) return { source, name, file: entryFile, line: null, reasons };
  return { definition: definition as PackDefinition, module_url: moduleUrl, source };
}

/**
 * What to call a pack whose module gives no name: its package's name, else its folder's, else the npm package
 * it was asked for by (built-ins are `builtin:<folder>`).
 */
function fallbackName(source: string): string {
  if (source.startsWith('builtin:')) return source.slice('builtin:'.length);
  const path = resolve(source);
  if (!existsSync(path)) return source;
  const folder = statSync(path).isDirectory() ? path : resolve(path, '..');
  const manifest = join(folder, 'package.json');
  if (existsSync(manifest)) {
    try {
      const { name } = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown };
      if (typeof name === 'string' && name) return name;
    } catch {
      // An unreadable package.json names nothing: the folder does.
    }
  }
  return basename(folder);
}

function builtinDirectories(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .sort()
    .map((name) => join(dir, name))
    .filter((path) => statSync(path).isDirectory() && ENTRY_FILES.some((file) => existsSync(join(path, file))));
}

function locateThirdParty(entry: string): string {
  const path = resolve(entry);
  if (existsSync(path)) {
    return statSync(path).isDirectory() ? directoryEntry(path) : pathToFileURL(path).href;
  }
  // An npm package: imported by name, so it resolves from the service's node_modules in the main thread
  // and in the workers alike.
  return entry;
}

/** The module of a pack directory: its package.json `main`, else index.ts / .mts / .mjs / .js. */
function directoryEntry(dir: string): string {
  const manifestPath = join(dir, 'package.json');
  if (existsSync(manifestPath)) {
    const main = (JSON.parse(readFileSync(manifestPath, 'utf8')) as { main?: string }).main;
    if (main) return pathToFileURL(resolve(dir, main)).href;
  }
  const entry = ENTRY_FILES.find((file) => existsSync(join(dir, file)));
  if (!entry) throw new Error(`no ${ENTRY_FILES.join(', ')} in ${dir}`);
  return pathToFileURL(join(dir, entry)).href;
}
