import { readFile } from 'node:fs/promises';
import { extname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Loader, type OutputFile, type Plugin } from 'esbuild';
import { sha256 } from './bundle-record.mjs';

/** A bundle as built: its files, and what they were built from (the sources' SHA-256, the packages' files). */
export interface BuiltBundle {
  files: OutputFile[];
  sources: Record<string, string>;
  packages: string[];
}

export interface BundleOptions {
  /**
   * Dynamic imports left out of the bundle, imported from their source by file URL when asked for (so only
   * where a TypeScript loader is registered): a command line's commands other than those the bundle is for.
   */
  fromSource?: (specifier: string, importer: string) => boolean;
}

/**
 * An entry bundled by esbuild into ES modules for Node, nothing written. Packages stay outside the bundle,
 * imported by absolute file URL; each source is read here, so that its hash is that of the bytes bundled, and
 * its `import.meta.url` is its own file's, as it would be unbundled (a worker's entry beside it, a data file).
 */
export async function buildBundle(entryPath: string, { fromSource }: BundleOptions = {}): Promise<BuiltBundle> {
  const sources: Record<string, string> = {};
  const packages = new Set<string>();
  const result = await build({
    entryPoints: [entryPath],
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    outdir: '/',
    // ES modules by their name wherever they are kept, whatever the package.json above them (none in /tmp).
    outExtension: { '.js': '.mjs' },
    write: false,
    logLevel: 'silent',
    plugins: [...(fromSource ? [dynamicFromSource(fromSource)] : []), packagesByUrl(packages), hashedSources(sources)],
  });
  return { files: result.outputFiles, sources, packages: [...packages] };
}

/** Packages are imported where they are installed, by file URL (`node:` and other built-ins as they are). */
const packagesByUrl = (packages: Set<string>): Plugin => ({
  name: 'packages-by-url',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (args.pluginData === packages) return undefined;
      const resolved = await build.resolve(args.path, {
        kind: args.kind,
        resolveDir: args.resolveDir,
        importer: args.importer,
        pluginData: packages,
      });
      if (resolved.errors.length > 0) return { errors: resolved.errors };
      if (resolved.external) return { path: args.path, external: true };
      packages.add(resolved.path);
      return { path: pathToFileURL(resolved.path).href, external: true };
    });
  },
});

/** The dynamic imports `fromSource` names, left as imports of their source file by URL. */
const dynamicFromSource = (fromSource: NonNullable<BundleOptions['fromSource']>): Plugin => ({
  name: 'dynamic-from-source',
  setup(build) {
    build.onResolve({ filter: /^\./ }, (args) => {
      if (args.kind !== 'dynamic-import' || !fromSource(args.path, args.importer)) return undefined;
      const source = resolve(args.resolveDir, args.path.replace(/\.js$/, '.ts'));
      return { path: pathToFileURL(source).href, external: true };
    });
  },
});

const LOADERS: Record<string, Loader> = { '.ts': 'ts', '.mts': 'ts', '.js': 'js', '.mjs': 'js', '.json': 'json' };

/** Spelled so that this module, bundled, does not rewrite its own pattern. */
const IMPORT_META_URL = /\bimport\.meta\.url\b/g;

/** Each source file loaded as esbuild would, its SHA-256 kept. */
const hashedSources = (sources: Record<string, string>): Plugin => ({
  name: 'hashed-sources',
  setup(build) {
    build.onLoad({ filter: /.*/, namespace: 'file' }, async (args) => {
      const contents = await readFile(args.path);
      sources[args.path] = sha256(contents);
      const loader = LOADERS[extname(args.path)] ?? 'default';
      if (loader !== 'ts' && loader !== 'js') return { contents, loader };
      const url = JSON.stringify(pathToFileURL(args.path).href);
      return { contents: contents.toString('utf8').replace(IMPORT_META_URL, url), loader };
    });
  },
});
