import { constants, createWriteStream } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { Writable } from 'node:stream';

/**
 * A result file written around the page cache (`O_DIRECT`) where the file system allows it, through the
 * page cache otherwise. A job writes gigabytes that a download reads, if ever, much later: through the
 * page cache they would evict what the service keeps warm there (the event store's pages), and the
 * kernel's copy is the job's largest cost after generation (see docs/performance.md).
 *
 * Direct I/O moves whole aligned blocks, so chunks are copied into a staging buffer whose halves take
 * turns (one is written while the next fills). The buffer is a WebAssembly memory, the one buffer
 * JavaScript can get page-aligned; should it not be, the probing write at open fails and the file goes
 * through the page cache. The last, partial block is written whole and the file cut to its length.
 */
export async function openResultFile(path: string, { direct = true }: { direct?: boolean } = {}): Promise<Writable> {
  const opened = direct && constants.O_DIRECT !== undefined ? await openDirect(path) : null;
  return opened ? new DirectFile(opened.handle, opened.staging) : createWriteStream(path, { flush: true });
}

/** Bytes of one direct write's alignment: the largest logical block size in use (4096, or 512). */
const BLOCK = 4096;
/** Bytes of each staging half: a little over one chunk of a wide table, so about one write per chunk. */
const HALF = 4 << 20;
const WASM_PAGE = 65_536;

/**
 * The file opened for direct I/O and its staging memory, once a first aligned write from it succeeded;
 * null where it did not.
 */
async function openDirect(path: string): Promise<{ handle: FileHandle; staging: Uint8Array } | null> {
  let handle: FileHandle | null = null;
  try {
    // Before the file: memory refused (a limit on the address space, each WebAssembly memory reserving
    // gigabytes of it) is one more reason to write through the page cache, not a file left open.
    const staging = stagingMemory(2 * HALF);
    handle = await open(path, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_DIRECT, 0o666);
    await handle.write(staging, 0, BLOCK, 0);
    await handle.truncate(0);
    return { handle, staging };
  } catch {
    // Some file systems refuse O_DIRECT at open (tmpfs before Linux 6.6), a device may refuse the write (or
    // fail it, as a full one would): the buffered stream opens the file again and meets any real failure
    // on its own first write.
    await handle?.close().catch(() => undefined);
    return null;
  }
}

/** The global the project's ES library typings leave out (they hold no DOM or WebAssembly names). */
const { Memory } = (
  globalThis as unknown as { WebAssembly: { Memory: new (size: { initial: number }) => { buffer: ArrayBuffer } } }
).WebAssembly;

function stagingMemory(bytes: number): Uint8Array {
  return new Uint8Array(new Memory({ initial: Math.ceil(bytes / WASM_PAGE) }).buffer, 0, bytes);
}

class DirectFile extends Writable {
  readonly #handle: FileHandle;
  readonly #halves: [Uint8Array, Uint8Array];
  /** The half's write under way, if any: the half is not written over before it settles. */
  readonly #writing: [Promise<void>, Promise<void>] = [Promise.resolve(), Promise.resolve()];
  #current: 0 | 1 = 0;
  #filled = 0;
  /** Where the current half's bytes go in the file. */
  #position = 0;

  constructor(handle: FileHandle, staging: Uint8Array) {
    super();
    this.#handle = handle;
    this.#halves = [staging.subarray(0, HALF), staging.subarray(HALF)];
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.#take(chunk).then(() => callback(), callback);
  }

  override _final(callback: (error?: Error | null) => void): void {
    this.#finish().then(() => callback(), callback);
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    Promise.allSettled(this.#writing)
      .then(() => this.#handle.close())
      .then(
        () => callback(error),
        (closeError: Error) => callback(error ?? closeError),
      );
  }

  async #take(chunk: Uint8Array): Promise<void> {
    for (let at = 0; at < chunk.length;) {
      const taken = Math.min(HALF - this.#filled, chunk.length - at);
      this.#halves[this.#current].set(chunk.subarray(at, at + taken), this.#filled);
      this.#filled += taken;
      at += taken;
      if (this.#filled === HALF) await this.#turn();
    }
  }

  /** Writes the full current half, and waits until the other one may be filled. */
  async #turn(): Promise<void> {
    this.#startWrite(HALF);
    this.#position += HALF;
    this.#current = this.#current === 0 ? 1 : 0;
    this.#filled = 0;
    await this.#writing[this.#current];
  }

  async #finish(): Promise<void> {
    const length = this.#position + this.#filled;
    if (this.#filled > 0) this.#startWrite(Math.ceil(this.#filled / BLOCK) * BLOCK);
    await Promise.all(this.#writing);
    await this.#handle.truncate(length);
    await this.#handle.sync();
  }

  #startWrite(bytes: number): void {
    const writing = this.#writeWhole(this.#halves[this.#current], bytes, this.#position);
    writing.catch(() => undefined); // awaited before its half is reused, or at the end: rejects there
    this.#writing[this.#current] = writing;
  }

  /**
   * write(2) may write less than it was given (a device filling up writes what fits): the rest is written
   * after it, where it would otherwise be a hole the final truncate fills with zeros. A short direct write
   * ends on a block, so the rest stays aligned; the retry meets the device's real error, if any.
   */
  async #writeWhole(half: Uint8Array, bytes: number, position: number): Promise<void> {
    for (let done = 0; done < bytes;) {
      const { bytesWritten } = await this.#handle.write(half, done, bytes - done, position + done);
      if (bytesWritten === 0) throw new Error(`the result file took no bytes at ${position + done}`);
      done += bytesWritten;
    }
  }
}
