import { createHash } from 'node:crypto';
import { mkdir, open, readdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import type { Compression, OutputFormat } from '../domain/job/events.js';

/**
 * Where a job's results live: `<resultsDir>/<jobId>/<table>.<format>[.gz]`, a directory every
 * instance of a fleet shares. A table is written to `<final>.<attempt>.part` and renamed into place
 * only once complete and flushed, so a download never sees half a table.
 */
export function jobDirectory(resultsDir: string, jobId: string): string {
  return join(resultsDir, jobId);
}

export function resultFileName(table: string, format: OutputFormat, compression: Compression): string {
  return `${table}.${format}${compression === 'gzip' ? '.gz' : ''}`;
}

export function partFileName(table: string, format: OutputFormat, compression: Compression, attempt: number): string {
  return `${resultFileName(table, format, compression)}.${attempt}.part`;
}

export interface WrittenFile {
  bytes: number;
  sha256: string;
}

/**
 * Streams `chunks` (the table's serialized rows, in order) through gzip when asked, hashing and
 * counting the bytes as they go to disk: memory holds one chunk at a time, never the table. Any
 * write error (ENOSPC, EIO) rejects, and the part file is removed.
 */
export async function writeResultFile(options: {
  directory: string;
  file: string;
  partFile: string;
  compression: Compression;
  chunks: AsyncIterable<Uint8Array>;
  signal?: AbortSignal;
}): Promise<WrittenFile> {
  const { directory, file, partFile, compression, chunks, signal } = options;
  await mkdir(directory, { recursive: true });
  const partPath = join(directory, partFile);
  const hash = createHash('sha256');
  let bytes = 0;
  const measure = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      bytes += chunk.length;
      done(null, chunk);
    },
  });
  const handle = await open(partPath, 'w');
  try {
    const sink = handle.createWriteStream({ autoClose: false });
    if (compression === 'gzip') await pipeline(chunks, createGzip(), measure, sink, { signal });
    else await pipeline(chunks, measure, sink, { signal });
    await handle.sync();
    await handle.close();
    await rename(partPath, join(directory, file));
  } catch (error) {
    await handle.close().catch(() => undefined);
    await rm(partPath, { force: true });
    throw error;
  }
  return { bytes, sha256: hash.digest('hex') };
}

/** Part files left by an earlier attempt whose runner died: the new attempt writes every table again. */
export async function removePartFiles(directory: string): Promise<void> {
  const names = await readdir(directory).catch(() => [] as string[]);
  await Promise.all(names.filter((name) => name.endsWith('.part')).map((name) => rm(join(directory, name), { force: true })));
}

/** A cancelled, failed or expired job leaves nothing on disk. */
export async function removeJobDirectory(resultsDir: string, jobId: string): Promise<void> {
  await rm(jobDirectory(resultsDir, jobId), { recursive: true, force: true });
}
