import { open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export type FileHandleMethod = (this: { fd: number }, ...args: unknown[]) => Promise<unknown>;

/**
 * Runs `body` with a FileHandle method (every handle's: they share a prototype that the module does
 * not export) replaced by `replace(original)`: how a test makes the device fail, or watches it.
 */
export async function withFileHandleMethod(
  name: 'write' | 'sync',
  replace: (original: FileHandleMethod) => FileHandleMethod,
  body: () => Promise<void>,
): Promise<void> {
  const path = join(tmpdir(), `finsynth-file-handle-${process.pid}`);
  const probe = await open(path, 'w');
  const prototype = Object.getPrototypeOf(probe) as Record<typeof name, FileHandleMethod>;
  await probe.close();
  await rm(path, { force: true });
  const original = prototype[name];
  prototype[name] = replace(original);
  try {
    await body();
  } finally {
    prototype[name] = original;
  }
}
