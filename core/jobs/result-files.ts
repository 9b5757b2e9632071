import { createHash } from 'node:crypto';
import { mkdir, open, readdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform, type Writable } from 'node:stream';
import { finished, pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import type { Compression, OutputFormat } from './events.js';
import { openResultFile } from './direct-file.js';

/**
 * Where a job's results live: `<resultsDir>/<jobId>/<table>.<format>[.gz]` (never .gz for parquet), a directory every
 * instance of a fleet shares. A table is written to `<final>.<attempt>.part` and renamed into place
 * only once complete and flushed, so a download never sees half a table; the directory is flushed after
 * the rename, so a table recorded as written is still there after a crash.
 */
export function jobDirectory(resultsDir: string, jobId: string): string {
  return join(resultsDir, jobId);
}

export function resultFileName(table: string, format: OutputFormat, compression: Compression): string {
  return `${table}.${format}${fileCompression(format, compression) === 'gzip' ? '.gz' : ''}`;
}

/** What the file as stored is compressed with: a Parquet file compresses its pages inside, and is stored as it is. */
export function fileCompression(format: OutputFormat, compression: Compression): 'none' | 'gzip' {
  return format !== 'parquet' && compression === 'gzip' ? 'gzip' : 'none';
}

export function partFileName(table: string, format: OutputFormat, compression: Compression, attempt: number): string {
  return `${resultFileName(table, format, compression)}.${attempt}.part`;
}

export interface WrittenFile {
  bytes: number;
  sha256: string;
}

/**
 * Writes `chunks` (the table's serialized rows, in order) through gzip when asked, hashing and counting
 * the bytes stored as they go to disk. Each chunk is done with (written, or taken in by gzip) before the
 * next is asked for, so that a generator may hand its buffer back to the workers: memory holds the
 * chunks the pool keeps in flight, never the table. Any write error (ENOSPC, EIO) rejects, and the part
 * file is removed.
 */
export async function writeResultFile(options: {
  directory: string;
  file: string;
  partFile: string;
  /**
   * Of the file as stored (fileCompression): only gzip compresses the bytes on their way; a Parquet file's
   * pages are compressed before they come here.
   */
  compression: Compression;
  chunks: AsyncIterable<Uint8Array>;
  signal?: AbortSignal;
}): Promise<WrittenFile> {
  const { directory, file, partFile, compression, chunks, signal } = options;
  await mkdir(directory, { recursive: true });
  const partPath = join(directory, partFile);
  const hash = createHash('sha256');
  let bytes = 0;
  const measure = (chunk: Uint8Array) => {
    hash.update(chunk);
    bytes += chunk.length;
  };
  // Flushed before it finishes: the bytes are on disk before the rename makes the file visible.
  const sink = await openResultFile(partPath);
  // Output in 256 KiB pieces rather than zlib's 16 KiB: a sixteenth of the callbacks and writes on the
  // main thread (zlib itself runs on libuv's threads), and the same bytes.
  const gzip = compression === 'gzip' ? createGzip({ chunkSize: 256 * 1024 }) : null;
  const input = gzip ?? sink;
  const stored = gzip ? pipeline(gzip, measuring(measure), sink, { signal }) : finished(sink);
  stored.catch(() => undefined); // observed once every chunk is in, or through the failed write
  try {
    for await (const chunk of chunks) {
      signal?.throwIfAborted();
      const writing = written(input, chunk);
      if (!gzip) measure(chunk); // while the bytes go to disk
      await writing;
    }
    input.end();
    await stored;
    await rename(partPath, join(directory, file));
    await syncDirectory(directory);
  } catch (error) {
    input.destroy();
    sink.destroy();
    await stored.catch(() => undefined);
    await rm(partPath, { force: true });
    throw error;
  }
  return { bytes, sha256: hash.digest('hex') };
}

/**
 * A rename is durable only once the directory that holds it is: until then a crash may take the file
 * back to its part name, or away, while the job's success, appended next, stands and its download is a 410.
 */
async function syncDirectory(directory: string): Promise<void> {
  if (process.platform === 'win32') return; // a directory cannot be opened to be flushed there
  const handle = await open(directory, 'r');
  try {
    await handle.sync();
  } catch (error) {
    // A file system that cannot flush a directory (some network ones, as a fleet's shared directory may
    // be) makes the rename as durable as it makes it: no reason to fail the job.
    if (!['EINVAL', 'ENOTSUP'].includes((error as NodeJS.ErrnoException).code ?? '')) throw error;
  } finally {
    await handle.close();
  }
}

/**
 * Resolves once `stream` is done with `chunk`: written to the file, or consumed by gzip. Rejects if the
 * stream closes first (a failed write downstream of gzip destroys it mid-chunk, and then never calls back).
 */
function written(stream: Writable, chunk: Uint8Array): Promise<void> {
  return new Promise((resolve, reject) => {
    const closed = () =>
      reject(stream.errored ?? new Error('the result file was closed while a chunk was being written'));
    stream.once('close', closed);
    stream.write(chunk, (error) => {
      stream.off('close', closed);
      if (error) reject(error);
      else resolve();
    });
  });
}

function measuring(measure: (chunk: Uint8Array) => void): Transform {
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      measure(chunk);
      done(null, chunk);
    },
  });
}

/**
 * The conformance report's file in the job's directory (core/reports/): its underscore keeps it apart from every
 * table's file, whose name starts with a letter.
 */
export const REPORT_FILE = '_report.json';

/** Writes the report as a table is written: to its part file, flushed, then renamed into place. */
export function writeReportFile(directory: string, report: Uint8Array, attempt: number): Promise<WrittenFile> {
  return writeResultFile({
    directory,
    file: REPORT_FILE,
    partFile: `${REPORT_FILE}.${attempt}.part`,
    compression: 'none',
    chunks: (async function* () {
      yield report;
    })(),
  });
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
