import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable, Transform } from 'node:stream';
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
  try {
    // `flush`: the bytes are on disk before the rename makes the file visible.
    const sink = createWriteStream(partPath, { flush: true });
    // One chunk read ahead, not the 16 an object stream holds by default: the pool keeps its own few
    // chunks in flight, and each chunk held here is megabytes of the service's memory.
    const source = Readable.from(chunks, { highWaterMark: 1 });
    if (compression === 'gzip') await pipeline(source, createGzip(), measure, sink, { signal });
    else await pipeline(source, measure, sink, { signal });
    await rename(partPath, join(directory, file));
  } catch (error) {
    await rm(partPath, { force: true });
    throw error;
  }
  return { bytes, sha256: hash.digest('hex') };
}

/** Part files left by earlier attempts whose runner died: the new attempt writes every table again. */
export async function removeStalePartFiles(directory: string, attempt: number): Promise<void> {
  const names = await readdir(directory).catch(() => [] as string[]);
  const stale = names.filter((name) => {
    const match = /\.(\d+)\.part$/.exec(name);
    return match !== null && Number(match[1]) < attempt;
  });
  await Promise.all(stale.map((name) => rm(join(directory, name), { force: true })));
}

/** A cancelled, failed or expired job leaves nothing on disk. */
export async function removeJobDirectory(resultsDir: string, jobId: string): Promise<void> {
  await rm(jobDirectory(resultsDir, jobId), { recursive: true, force: true });
}
