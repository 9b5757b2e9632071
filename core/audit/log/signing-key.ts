import { randomBytes } from 'node:crypto';
import { link, mkdir, open, readFile, rm } from 'node:fs/promises';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import { parseSignerKey, signerKeyFromSeed, type NoteSigner } from './note.js';

export interface LoadedSigningKey {
  signer: NoteSigner;
  /** True when this call created the key file: the caller prints the verifier key, once. */
  created: boolean;
}

/**
 * Reads the log's signing key, creating it (0600) if the file does not exist. The file holds one line, the
 * signer key in the encoding of Go's note package, so that the key name (the log's origin) travels with it.
 * Created under another name and linked into place, so that instances starting together on one folder all
 * end up with the key that was linked first, never with a half-written one.
 */
export async function loadAuditSigningKey(file: string, origin: string | undefined): Promise<LoadedSigningKey> {
  const existing = await readKey(file);
  if (existing !== null) return { signer: checkedSigner(file, existing, origin), created: false };
  const name = origin ?? defaultOrigin();
  await mkdir(dirname(file), { recursive: true });
  const partial = `${file}.${randomBytes(8).toString('hex')}.partial`;
  const handle = await open(partial, 'wx', 0o600);
  try {
    await handle.writeFile(`${signerKeyFromSeed(name, randomBytes(32))}\n`);
    await handle.sync();
  } finally {
    await handle.close();
  }
  let created = true;
  try {
    await link(partial, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    created = false;
  } finally {
    await rm(partial, { force: true });
  }
  const key = await readKey(file);
  if (key === null) throw new Error(`${file} vanished while it was being created`);
  return { signer: checkedSigner(file, key, origin), created };
}

/** The origin of a log whose operator named none: this host's, which a fleet's instances share through the key file. */
export const defaultOrigin = (): string => `${hostname().replace(/[\s+]/g, '-') || 'localhost'}/finsynth/audit`;

/** A log's origin never changes: a key made for another origin means another log, and is refused. */
function checkedSigner(file: string, key: string, origin: string | undefined): NoteSigner {
  let signer: NoteSigner;
  try {
    signer = parseSignerKey(key);
  } catch (error) {
    throw new Error(`${file} holds no audit signing key: ${(error as Error).message}`, { cause: error });
  }
  if (origin !== undefined && signer.name !== origin)
    throw new Error(
      `${file} signs the log "${signer.name}", but FINSYNTH_AUDIT_ORIGIN says "${origin}": ` +
        'a log keeps its origin (unset FINSYNTH_AUDIT_ORIGIN or set it to the key name)',
    );
  return signer;
}

async function readKey(file: string): Promise<string | null> {
  try {
    return (await readFile(file, 'utf8')).trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}
