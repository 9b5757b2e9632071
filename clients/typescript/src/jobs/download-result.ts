import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { open, rename, rm, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Writable } from 'node:stream';
import { FinsynthConnectionError, errorFromResponse } from '../errors.js';
import type { Requester, RequestOptions } from '../requester.js';
import { retryDelayMs } from '../transport/backoff.js';
import { sleep } from '../transport/sleep.js';

export interface DownloadOptions extends Omit<RequestOptions, 'idempotencyKey'> {
  /**
   * A file path, written under a temporary name in the same folder and renamed into place once whole and
   * checked; or a Node Writable, which receives the bytes in order (and is ended, unless `end` is false).
   */
  to: string | Writable;
  /** With a Writable: end it when the download is complete (true by default, as stream.pipeline does). */
  end?: boolean;
  /** Called as bytes arrive, with the count so far and the file's size when known. */
  onProgress?: (received: number, total: number | undefined) => void;
}

export interface DownloadResult {
  /** The bytes written. */
  bytes: number;
  /** Their SHA-256, hex. */
  sha256: string;
  /** The file's ETag, as the service gave it. */
  etag: string | undefined;
  /** The path written, when `to` was one. */
  path?: string;
}

/** A strong ETag that is a SHA-256 in quotes, as the service documents its result files' ETags. */
const SHA256_ETAG = /^"([0-9a-f]{64})"$/;

/** Where the bytes go: a file written at positions (so that a restart overwrites), or a stream. */
interface Sink {
  /** Whether the sink can start again from the first byte. */
  readonly rewindable: boolean;
  write(chunk: Uint8Array, position: number): Promise<void>;
  rewind(): Promise<void>;
  complete(): Promise<void>;
  abandon(): Promise<void>;
}

async function fileSink(path: string): Promise<Sink> {
  // The temporary name is in the target's folder, so that the rename is atomic (one file system).
  const temporary = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.part`);
  const handle: FileHandle = await open(temporary, 'w');
  return {
    rewindable: true,
    async write(chunk, position) {
      await handle.write(chunk, 0, chunk.length, position);
    },
    async rewind() {
      await handle.truncate(0);
    },
    async complete() {
      await handle.close();
      await rename(temporary, path);
    },
    async abandon() {
      await handle.close().catch(() => undefined);
      await rm(temporary, { force: true });
    },
  };
}

function streamSink(stream: Writable, end: boolean): Sink {
  return {
    rewindable: false,
    async write(chunk) {
      if (!stream.write(chunk)) await once(stream, 'drain');
    },
    async rewind() {
      throw new Error('a Writable cannot be rewound');
    },
    async complete() {
      if (end)
        await new Promise<void>((resolve, reject) =>
          stream.end((error?: Error | null) => (error ? reject(error) : resolve())),
        );
    },
    async abandon() {},
  };
}

/**
 * Hands every chunk of a stream to `write`; resolves with the stream's own error when it breaks (undefined
 * when it ends), while an error of `write` (the disk, the destination) rejects: only a break is resumed.
 */
async function copy(
  stream: ReadableStream<Uint8Array> | null | undefined,
  write: (chunk: Uint8Array) => Promise<void>,
): Promise<unknown> {
  if (!stream) return undefined;
  const reader = stream.getReader();
  for (;;) {
    let next: Awaited<ReturnType<typeof reader.read>>;
    try {
      next = await reader.read();
    } catch (error) {
      return error ?? new Error('the answer broke');
    }
    if (next.done) return undefined;
    try {
      await write(next.value);
    } catch (error) {
      await reader.cancel().catch(() => undefined);
      throw error;
    }
  }
}

/**
 * Streams a job's result file into a sink. When the connection breaks mid-file, the download goes on
 * from the bytes received, with `Range: bytes=<received>-` and `If-Range: <ETag>`: the service sends the
 * rest (206) only if the file is still the one begun, and the whole file otherwise (200), which a file
 * sink starts again and a stream sink cannot. A break that brought no new byte counts against
 * `maxRetries`; one that did does not. The whole is checked against the ETag's SHA-256 at the end.
 */
export async function downloadResult(
  requester: Requester,
  id: string,
  table: string,
  options: DownloadOptions,
): Promise<DownloadResult> {
  const { to, end = true, onProgress, ...requestOptions } = options;
  const { maxRetries } = requester.policyOf(requestOptions);
  const sink = typeof to === 'string' ? await fileSink(to) : streamSink(to, end);
  let received = 0;
  let total: number | undefined;
  let etag: string | undefined;
  let hash = createHash('sha256');
  let fruitlessBreaks = 0;
  try {
    for (;;) {
      const init = requester.init(requestOptions);
      const header: { Range?: string; 'If-Range'?: string } = {};
      if (received > 0) {
        header.Range = `bytes=${received}-`;
        if (etag !== undefined) header['If-Range'] = etag;
      }
      const { data, error, response } = await requester.raw.GET('/v1/jobs/{id}/results/{table}', {
        params: { path: { id, table }, header },
        parseAs: 'stream',
        ...init,
      });
      if (!response.ok) throw errorFromResponse(response, error);
      if (response.status === 206) {
        const start = /^bytes (\d+)-/.exec(response.headers.get('content-range') ?? '')?.[1];
        if (Number(start) !== received)
          throw new Error(`asked for bytes from ${received}, got ${response.headers.get('content-range')}`);
      } else {
        // A whole file: the first answer, or the file changed since the first (If-Range did not match).
        if (received > 0) {
          if (!sink.rewindable) throw new Error(`the result file changed during the download after ${received} bytes`);
          await sink.rewind();
          received = 0;
          hash = createHash('sha256');
        }
        etag = response.headers.get('etag') ?? undefined;
        const length = response.headers.get('content-length');
        total = length === null ? undefined : Number(length);
      }
      const before = received;
      const broke = await copy(data, async (chunk) => {
        await sink.write(chunk, received);
        hash.update(chunk);
        received += chunk.length;
        onProgress?.(received, total);
      });
      // Whole when every announced byte came, even if the connection then failed; without a size, when it ended.
      if (total === undefined ? broke === undefined : received >= total) break;
      if (requestOptions.signal?.aborted) throw requestOptions.signal.reason;
      fruitlessBreaks = received > before ? 0 : fruitlessBreaks + 1;
      if (fruitlessBreaks > maxRetries) {
        const cause = broke ?? new Error(`the answer ended after ${received} of ${total} bytes`);
        throw new FinsynthConnectionError(`the download of ${table} broke after ${received} bytes`, { cause });
      }
      await sleep(retryDelayMs(fruitlessBreaks, undefined, Math.random), requestOptions.signal);
    }
    const sha256 = hash.digest('hex');
    const expected = SHA256_ETAG.exec(etag ?? '')?.[1];
    if (expected !== undefined && expected !== sha256) {
      throw new Error(`the downloaded bytes have SHA-256 ${sha256}, the file's ETag says ${expected}`);
    }
    await sink.complete();
    return { bytes: received, sha256, etag, ...(typeof to === 'string' ? { path: to } : {}) };
  } catch (error) {
    await sink.abandon();
    throw error;
  }
}
