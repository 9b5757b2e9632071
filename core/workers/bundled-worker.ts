import { createHash } from 'node:crypto';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';

/**
 * A worker thread's TypeScript entry as plain JavaScript, bundled by esbuild. A worker inherits no
 * loader, and registering tsx in it makes its start several times slower, which a short-lived worker
 * (the audit's) would pay every time (see docs/performance.md).
 *
 * Packages stay outside the bundle, imported by absolute file URL, so that it can live in the temporary
 * directory; modules the entry imports dynamically still load only when asked for. It is built once per
 * process and entry into a directory named by its hash (never stale, shared by processes that build the
 * same bytes), inside a directory only this user may write to, since the code in it is run.
 */
export function bundledWorker(entry: URL): Promise<URL> {
  let bundled = bundles.get(entry.href);
  if (!bundled) {
    bundled = bundle(entry);
    bundles.set(entry.href, bundled);
    bundled.catch(() => bundles.delete(entry.href));
  }
  return bundled;
}

const bundles = new Map<string, Promise<URL>>();

async function bundle(entry: URL): Promise<URL> {
  const entryPath = fileURLToPath(entry);
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
    plugins: [packagesByUrl],
  });
  const hash = createHash('sha256');
  for (const file of result.outputFiles) hash.update(file.path).update(file.contents);
  const directory = join(await privateDirectory(), hash.digest('hex').slice(0, 20));
  const present = await Promise.all(result.outputFiles.map((file) => exists(join(directory, file.path))));
  if (!present.every(Boolean)) {
    await rm(directory, { recursive: true, force: true });
    await writeAtomically(directory, result.outputFiles);
  }
  const entryName = `${basename(entryPath).replace(/\.[cm]?ts$/, '')}.js`;
  return pathToFileURL(join(directory, entryName));
}

/** Packages are imported where they are installed, by file URL (`node:` and other built-ins as they are). */
const packagesByUrl: Plugin = {
  name: 'packages-by-url',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (args.pluginData === packagesByUrl) return undefined;
      const resolved = await build.resolve(args.path, {
        kind: args.kind,
        resolveDir: args.resolveDir,
        importer: args.importer,
        pluginData: packagesByUrl,
      });
      if (resolved.errors.length > 0) return { errors: resolved.errors };
      if (resolved.external) return { path: args.path, external: true };
      return { path: pathToFileURL(resolved.path).href, external: true };
    });
  },
};

/** This user's directory of bundles, refused if anyone else could have put code in it. */
async function privateDirectory(): Promise<string> {
  const uid = process.getuid?.();
  const directory = join(tmpdir(), `finsynth-workers-${uid ?? 'user'}`);
  await mkdir(directory, { recursive: true, mode: 0o700 });
  const { uid: owner, mode } = await stat(directory);
  if (uid !== undefined && (owner !== uid || (mode & 0o022) !== 0)) {
    throw new Error(
      `${directory} belongs to another user or others may write to it; remove it so that finsynth can make its own`,
    );
  }
  return directory;
}

/** Written beside, then renamed into place: another process sees the whole directory or none of it. */
async function writeAtomically(directory: string, files: { path: string; contents: Uint8Array }[]): Promise<void> {
  const staging = `${directory}.${process.pid}.${Date.now()}`;
  try {
    for (const file of files) {
      const path = join(staging, file.path);
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, file.contents);
    }
    await rename(staging, directory).catch(async (error: NodeJS.ErrnoException) => {
      // Another process renamed the same bundle into place first.
      if (!(await exists(directory))) throw error;
    });
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );
