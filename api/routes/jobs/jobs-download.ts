import { open, type FileHandle } from 'node:fs/promises';
import { defineProblem, problem } from '../../../core/problems.js';
import type { ResultFile } from '../../../core/jobs/events.js';
import { JobProblems } from '../../../core/jobs/job.js';
import { fileCompression } from '../../../core/jobs/result-files.js';
import type { ApiContext } from '../../http/context.js';
import { noneMatchHolds } from '../../http/conditional.js';

export const RangeNotSatisfiable = defineProblem({
  slug: 'range-not-satisfiable',
  title: 'Range Not Satisfiable',
  status: 416,
  description:
    'The Range header asks for bytes beyond the end of the file; `Content-Range: bytes */<size>` gives its size.',
});

const MEDIA_TYPES: Record<ResultFile['format'], string> = {
  csv: 'text/csv; charset=utf-8',
  ndjson: 'application/x-ndjson',
  json: 'application/json',
  parquet: 'application/vnd.apache.parquet',
};

/**
 * The media type of a result file as stored: a gzip file is served as one, never decoded on the way; a
 * Parquet file is one whatever compresses its pages.
 */
export function resultMediaType(file: Pick<ResultFile, 'format' | 'compression'>): string {
  return fileCompression(file.format, file.compression) === 'gzip' ? 'application/gzip' : MEDIA_TYPES[file.format];
}

/**
 * One `bytes=` range of RFC 9110 section 14.1.2 (`a-b`, `a-`, `-n`), clamped to the file, or null when
 * the header is absent or of a form served in full (several ranges, another unit). Throws 416 when the
 * range starts past the end.
 */
export function parseRange(header: string | undefined, size: number): { start: number; end: number } | null {
  const match = header === undefined ? null : /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return null;
  const [first, last] = [match[1], match[2]];
  if (first !== '' && last !== '' && Number(last) < Number(first)) return null;
  const start = first === '' ? Math.max(0, size - Number(last)) : Number(first);
  const end = first === '' || last === '' ? size - 1 : Math.min(Number(last), size - 1);
  // A suffix of 0 bytes, or a start at or past the end, selects nothing.
  if (start >= size || end < start) {
    throw problem(
      RangeNotSatisfiable,
      `the file has ${size} bytes; the range ${header} selects none of them`,
      { size },
      { 'Content-Range': `bytes */${size}` },
    );
  }
  return { start, end };
}

/**
 * Streams a finished result file: strong ETag from its SHA-256, Content-Length, and resumable
 * single ranges (206). `If-Range` with another ETag means the client's copy is of other bytes: the
 * whole file is sent. `If-None-Match` with the same ETag (weakly compared, RFC 9110 §13.1.2) or `*`
 * is a 304. The file is opened before anything is answered: one removed since the job's view was read
 * (its results expired a moment ago) is a 410 problem, not a 200 cut short.
 */
export async function sendResultFile(ctx: ApiContext, file: ResultFile & { path: string }): Promise<void> {
  const etag = `"${file.sha256}"`;
  if (noneMatchHolds(ctx.get('If-None-Match'), etag)) {
    setFileHeaders(ctx, file, etag);
    ctx.status = 304;
    return;
  }
  const ifRange = ctx.get('If-Range');
  const range = ifRange === '' || ifRange === etag ? parseRange(ctx.get('Range') || undefined, file.bytes) : null;
  const handle = await openResult(file.path);
  try {
    setFileHeaders(ctx, file, etag);
    ctx.type = resultMediaType(file);
    ctx.status = range ? 206 : 200;
    if (range) ctx.set('Content-Range', `bytes ${range.start}-${range.end}/${file.bytes}`);
  } catch (error) {
    await handle.close();
    throw error;
  }
  // From here the stream owns the handle: Koa destroys it when the response ends, which closes the file.
  ctx.body = handle.createReadStream(range ?? {});
  ctx.length = range ? range.end - range.start + 1 : file.bytes;
}

function setFileHeaders(ctx: ApiContext, file: ResultFile, etag: string): void {
  ctx.set('ETag', etag);
  ctx.set('Accept-Ranges', 'bytes');
  ctx.set('Content-Disposition', `attachment; filename="${file.file}"`);
  ctx.set('Cache-Control', 'private, max-age=0, must-revalidate');
}

async function openResult(path: string): Promise<FileHandle> {
  try {
    return await open(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    throw problem(JobProblems.resultsExpired, 'the result file was removed: its retention time has passed');
  }
}
