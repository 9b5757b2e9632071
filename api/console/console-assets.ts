import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';

/** The console's build, committed beside its sources (console/README.md says how it is made). */
export const CONSOLE_DIST = fileURLToPath(new URL('../../console/dist/', import.meta.url));

export interface ConsoleAsset {
  name: string;
  type: string;
  etag: string;
  identity: Buffer;
  gzip: Buffer;
}

export interface ConsoleAssets {
  /** The files the page names: the entry script and the stylesheet. */
  script: string;
  style: string;
  files: ReadonlyMap<string, ConsoleAsset>;
}

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

async function load(): Promise<ConsoleAssets> {
  const manifest = JSON.parse(await readFile(join(CONSOLE_DIST, 'manifest.json'), 'utf8')) as {
    script: string;
    style: string;
    files: string[];
  };
  const files = new Map<string, ConsoleAsset>();
  for (const name of manifest.files) {
    const identity = await readFile(join(CONSOLE_DIST, name));
    files.set(name, {
      name,
      type: TYPES[extname(name)] ?? 'application/octet-stream',
      etag: `"${createHash('sha256').update(identity).digest('hex')}"`,
      identity,
      gzip: await promisify(gzip)(identity, { level: 9 }),
    });
  }
  return { script: manifest.script, style: manifest.style, files };
}

let loaded: Promise<ConsoleAssets> | undefined;

/** The built files, read and compressed on first use, then kept for the life of the process. */
export function consoleAssets(): Promise<ConsoleAssets> {
  loaded ??= load().catch((error: unknown) => {
    // A failed read is tried again by the next request rather than remembered.
    loaded = undefined;
    throw error;
  });
  return loaded;
}
