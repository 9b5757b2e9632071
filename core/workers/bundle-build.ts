import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Loader, type OutputFile, type Plugin } from 'esbuild';
import { sha256 } from './bundle-record.js';

/** A bundle as built: its files, and what they were built from (the sources' SHA-256, the packages' files). */
export interface BuiltBundle {
  files: OutputFile[];
  sources: Record<string, string>;
  packages: string[];
}

/**
 * An entry bundled by esbuild into ES modules for Node, nothing written. Packages stay outside the bundle,
 * imported by absolute file URL; each source is read here, so that its hash is that of the bytes bundled.
 */
export async function buildBundle(entryPath: string): Promise<BuiltBundle> {
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
    write: false,
    logLevel: 'silent',
    plugins: [packagesByUrl(packages), hashedSources(sources)],
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

const LOADERS: Record<string, Loader> = { '.ts': 'ts', '.mts': 'ts', '.js': 'js', '.mjs': 'js', '.json': 'json' };

/** Each source file loaded as esbuild would, its SHA-256 kept. */
const hashedSources = (sources: Record<string, string>): Plugin => ({
  name: 'hashed-sources',
  setup(build) {
    build.onLoad({ filter: /.*/, namespace: 'file' }, async (args) => {
      const contents = await readFile(args.path);
      sources[args.path] = sha256(contents);
      return { contents, loader: LOADERS[extname(args.path)] ?? 'default' };
    });
  },
});
