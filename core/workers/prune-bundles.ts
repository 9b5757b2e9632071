import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { readRecord } from './bundle-record.mjs';

/**
 * How long a bundle no record names is kept after it was written: a process started from it before it was
 * replaced may still import one of its chunks, which load only when asked for.
 */
export const UNREFERENCED_KEPT_MS = 7 * 24 * 60 * 60 * 1000;
/** What a process that died while writing a bundle or its record left staged is removed after a day. */
export const STAGING_KEPT_MS = 24 * 60 * 60 * 1000;

const BUNDLE = /^[0-9a-f]{20}$/;
const STAGING = /^[0-9a-f]{20}(\.json)?\.\d+\.\d+$/;

/**
 * Removes from the directory of bundles what no record names and is old enough: each build of a changed source
 * leaves its bundle behind otherwise. Answers the names removed; what it cannot remove it leaves.
 */
export async function pruneBundles(bundles: string, now = Date.now()): Promise<string[]> {
  const names = await readdir(bundles);
  const records = await Promise.all(
    names.filter((name) => name.endsWith('.json')).map((name) => readRecord(join(bundles, name))),
  );
  const named = new Set(records.flatMap((record) => (record ? [record.directory] : [])));
  const removed: string[] = [];
  for (const name of names) {
    const keptFor = BUNDLE.test(name) ? UNREFERENCED_KEPT_MS : STAGING.test(name) ? STAGING_KEPT_MS : undefined;
    if (keptFor === undefined || named.has(name)) continue;
    const path = join(bundles, name);
    const written = await stat(path).then(
      ({ mtimeMs }) => mtimeMs,
      () => now,
    );
    if (now - written < keptFor) continue;
    await rm(path, { recursive: true, force: true }).then(
      () => removed.push(name),
      () => {},
    );
  }
  return removed;
}
