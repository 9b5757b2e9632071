import { createHash } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';
import type { BundleOptions } from './bundle-build.js';
import {
  bundledName,
  bundlesDirectory,
  esbuildVersion,
  exists,
  keepRecord,
  keptEntryBundle,
  recordPath,
} from './bundle-record.mjs';
import { pruneBundles } from './prune-bundles.js';

/**
 * A worker thread's TypeScript entry as plain JavaScript, bundled by esbuild. A worker inherits no
 * loader, and registering tsx in it makes its start several times slower, which a short-lived worker
 * (the audit's) would pay every time (see docs/performance.md).
 *
 * Packages stay outside the bundle, imported by absolute file URL, so that it can live in the temporary
 * directory; modules the entry imports dynamically still load only when asked for. It is built once per
 * process and entry into a directory named by its hash (never stale, shared by processes that build the
 * same bytes), inside a directory only this user may write to, since the code in it is run; a record of
 * its sources beside it lets later processes start it without building it again.
 */
export function bundledWorker(entry: URL): Promise<URL> {
  let bundled = bundles.get(entry.href);
  if (!bundled) {
    bundled = keptOrBuilt(entry);
    bundles.set(entry.href, bundled);
    bundled.catch(() => bundles.delete(entry.href));
  }
  return bundled;
}

const bundles = new Map<string, Promise<URL>>();

/**
 * A bundle's worker, started with none of this process's Node options: a worker inherits them, and with them
 * the module loader of a process started as `node --import tsx` (mocha, the benches), which doubles its start.
 * A bundle is plain JavaScript that needs neither; V8's flags are the process's, whatever a worker is given.
 */
export function startBundled(url: URL, options: Omit<WorkerOptions, 'execArgv'> = {}): Worker {
  return new Worker(url, { ...options, execArgv: [] });
}

/**
 * The entry's bundle as its record keeps it if every source is unchanged, else built now; not memoised. An
 * entry is always built with the same options: its record does not hold them.
 */
export async function keptOrBuilt(entry: URL, options: BundleOptions = {}): Promise<URL> {
  const kept = await keptEntryBundle(entry);
  if (kept) return kept;
  const entryPath = fileURLToPath(entry);
  const bundles = await bundlesDirectory();
  // esbuild is loaded only to build: a process that finds its bundles kept never loads it.
  const { buildBundle } = await import('./bundle-build.js');
  const built = await buildBundle(entryPath, options);
  const hash = createHash('sha256');
  for (const file of built.files) hash.update(file.path).update(file.contents);
  const name = hash.digest('hex').slice(0, 20);
  const directory = join(bundles, name);
  const present = await Promise.all(built.files.map((file) => exists(join(directory, file.path))));
  if (!present.every(Boolean)) {
    await rm(directory, { recursive: true, force: true });
    await writeAtomically(directory, built.files);
  }
  await keepRecord(recordPath(bundles, entryPath), {
    esbuild: esbuildVersion(),
    sources: built.sources,
    packages: built.packages,
    directory: name,
    files: built.files.map((file) => file.path),
  });
  // The bundle this build replaced, and any other no record names, once old enough; never failing the build.
  await pruneBundles(bundles).catch(() => []);
  return pathToFileURL(join(directory, bundledName(entryPath)));
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
