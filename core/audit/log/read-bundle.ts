import { open } from 'node:fs/promises';

/**
 * A bundle file read into memory a worker thread can share, so that `verifyBundle` hands the worker its range
 * without a copy; read whole at once, since a file read in pieces is joined by one more copy.
 */
export async function readBundle(path: string): Promise<Uint8Array> {
  const file = await open(path);
  try {
    const { size } = await file.stat();
    const bytes = new Uint8Array(new SharedArrayBuffer(size));
    let read = 0;
    while (read < size) {
      const { bytesRead } = await file.read(bytes, read, size - read, read);
      if (bytesRead === 0) break;
      read += bytesRead;
    }
    return bytes.subarray(0, read);
  } finally {
    await file.close();
  }
}
