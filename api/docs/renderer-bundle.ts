import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';

/** The renderer of the reference page, one file served as it is shipped: Scalar's standalone browser bundle. */
export interface RendererBundle {
  /** The name it is served under: content-addressed, so that browsers may keep it for a year. */
  name: string;
  etag: string;
  identity: Buffer;
  gzip: Buffer;
}

// The package exports no path to its browser bundle; it lies beside the entry point, in the same dist folder.
const BUNDLE_PATH = join(
  dirname(createRequire(import.meta.url).resolve('@scalar/api-reference')),
  'browser',
  'standalone.js',
);

async function load(): Promise<RendererBundle> {
  const identity = await readFile(BUNDLE_PATH);
  const digest = createHash('sha256').update(identity).digest('hex');
  return {
    name: `api-reference.${digest.slice(0, 16)}.js`,
    etag: `"${digest}"`,
    identity,
    // Compressed once per process: about a quarter of its 5 MB, at a cost paid by the first request only.
    gzip: await promisify(gzip)(identity, { level: 9 }),
  };
}

let loaded: Promise<RendererBundle> | undefined;

/** The bundle, read and compressed on first use, then kept for the life of the process. */
export function rendererBundle(): Promise<RendererBundle> {
  loaded ??= load().catch((error: unknown) => {
    // A failed read is tried again by the next request rather than remembered.
    loaded = undefined;
    throw error;
  });
  return loaded;
}
