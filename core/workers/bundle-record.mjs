// Plain JavaScript, so that bin/finsynth.js can start a kept bundle before any TypeScript loader is registered.
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** How bundles are built (core/workers/bundle-build.ts): a record of another build is not kept. Raised with it. */
const BUILD = 2;

/** @param {Uint8Array | string} bytes */
export const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');

/** The record of an entry's bundle, in the directory of bundles. */
export const recordPath = (bundles, entryPath) => join(bundles, `${sha256(entryPath).slice(0, 20)}.json`);

/** The bundle's file of an entry, `x.ts` bundled as `x.mjs`. */
export const bundledName = (entryPath) => `${basename(entryPath).replace(/\.[cm]?ts$/, '')}.mjs`;

/** Read from its package file: esbuild itself is not loaded for it. */
export const esbuildVersion = () => String(createRequire(import.meta.url)('esbuild/package.json').version);

/** This user's directory of bundles, refused if anyone else could have put code in it. */
export async function bundlesDirectory() {
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

/** The entry's kept bundle, as the URL of its module, if every source is unchanged; else null. */
export async function keptEntryBundle(entry) {
  const entryPath = fileURLToPath(entry);
  const kept = await keptBundle(recordPath(await bundlesDirectory(), entryPath), esbuildVersion());
  return kept === null ? null : pathToFileURL(join(kept, bundledName(entryPath)));
}

/** The directory of the recorded bundle if it still holds for these sources, else null. */
export async function keptBundle(path, esbuild) {
  const record = await readRecord(path);
  if (record === null || record.build !== BUILD || record.esbuild !== esbuild) return null;
  const bundles = dirname(path);
  const holds = await Promise.all([
    ...Object.entries(record.sources).map(([source, hash]) =>
      readFile(source).then(
        (bytes) => sha256(bytes) === hash,
        () => false,
      ),
    ),
    ...record.packages.map(exists),
    ...record.files.map((file) => exists(join(bundles, record.directory, file))),
  ]);
  return holds.every(Boolean) ? join(bundles, record.directory) : null;
}

/** Written beside, then renamed into place: a process reading it sees a whole record. */
export async function keepRecord(path, record) {
  const staging = `${path}.${process.pid}.${Date.now()}`;
  await writeFile(staging, JSON.stringify({ build: BUILD, ...record }));
  await rename(staging, path);
}

/** The record at `path`, or null when there is none or it is not one. */
export async function readRecord(path) {
  let value;
  try {
    value = JSON.parse(await readFile(path, 'utf8'));
  } catch {
    return null;
  }
  return isRecord(value) ? value : null;
}

const isStrings = (value) => Array.isArray(value) && value.every((item) => typeof item === 'string');

const isHashes = (value) =>
  typeof value === 'object' && value !== null && Object.values(value).every((hash) => typeof hash === 'string');

const isRecord = (value) =>
  typeof value === 'object' &&
  value !== null &&
  typeof value.esbuild === 'string' &&
  isHashes(value.sources) &&
  isStrings(value.packages) &&
  typeof value.directory === 'string' &&
  /^[0-9a-f]{20}$/.test(value.directory) &&
  isStrings(value.files);

export const exists = (path) =>
  stat(path).then(
    () => true,
    () => false,
  );
