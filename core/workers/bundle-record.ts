import { createHash } from 'node:crypto';
import { readFile, rename, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/**
 * What a bundle was built from, kept beside the bundles: a later process that finds every source unchanged
 * starts the bundle as it is, without loading esbuild or building (tens of milliseconds a process).
 */
export interface BundleRecord {
  esbuild: string;
  /** Each source file bundled, by absolute path, with the SHA-256 of the bytes bundled. */
  sources: Record<string, string>;
  /** The package files the bundle imports by URL: a reinstall may move them. */
  packages: string[];
  /** The bundle's directory, beside the record, and its files. */
  directory: string;
  files: string[];
}

export const sha256 = (bytes: Uint8Array | string): string => createHash('sha256').update(bytes).digest('hex');

/** The record of an entry's bundle, in the directory of bundles. */
export const recordPath = (bundles: string, entryPath: string): string =>
  join(bundles, `${sha256(entryPath).slice(0, 20)}.json`);

/** The directory of the recorded bundle if it still holds for these sources, else null. */
export async function keptBundle(path: string, esbuild: string): Promise<string | null> {
  const record = await readRecord(path);
  if (record === null || record.esbuild !== esbuild) return null;
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
export async function keepRecord(path: string, record: BundleRecord): Promise<void> {
  const staging = `${path}.${process.pid}.${Date.now()}`;
  await writeFile(staging, JSON.stringify(record));
  await rename(staging, path);
}

async function readRecord(path: string): Promise<BundleRecord | null> {
  let value: unknown;
  try {
    value = JSON.parse(await readFile(path, 'utf8'));
  } catch {
    return null;
  }
  return isRecord(value) ? value : null;
}

const isStrings = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((item) => typeof item === 'string');

const isHashes = (value: unknown): value is Record<string, string> =>
  typeof value === 'object' && value !== null && Object.values(value).every((hash) => typeof hash === 'string');

function isRecord(value: unknown): value is BundleRecord {
  return (
    typeof value === 'object' &&
    value !== null &&
    'esbuild' in value &&
    typeof value.esbuild === 'string' &&
    'sources' in value &&
    isHashes(value.sources) &&
    'packages' in value &&
    isStrings(value.packages) &&
    'directory' in value &&
    typeof value.directory === 'string' &&
    /^[0-9a-f]{20}$/.test(value.directory) &&
    'files' in value &&
    isStrings(value.files)
  );
}

export const exists = (path: string): Promise<boolean> =>
  stat(path).then(
    () => true,
    () => false,
  );
