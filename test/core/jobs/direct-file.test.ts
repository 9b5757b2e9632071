import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, readlinkSync, rmSync, statfsSync, WriteStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { openResultFile } from '../../../core/jobs/direct-file.js';
import { withFileHandleMethod, type FileHandleMethod } from './support/file-handle.js';
import { tempDir } from './support/instance.js';

const MiB = 1 << 20;
/** tmpfs had no direct I/O before Linux 6.6: a result file there may be written through the page cache. */
const TMPFS_MAGIC = 0x01021994;

/** Writes each chunk once the last is taken, as writeResultFile does, and ends the file. */
async function writeAll(stream: Writable, chunks: Uint8Array[]): Promise<void> {
  const done = finished(stream);
  done.catch(() => undefined); // observed below, after the writes, or through the failed write
  for (const chunk of chunks) {
    await new Promise<void>((resolve, reject) => stream.write(chunk, (error) => (error ? reject(error) : resolve())));
  }
  stream.end();
  await done;
}

describe('result files written around the page cache', () => {
  const directories: string[] = [];
  const directory = () => {
    const made = tempDir('direct-file');
    directories.push(made);
    return made;
  };
  after(() => directories.forEach((made) => rmSync(made, { recursive: true, force: true })));

  it('opens a file for direct I/O where the file system has it (Linux, not tmpfs)', async function () {
    if (process.platform !== 'linux' || statfsSync(tmpdir()).type === TMPFS_MAGIC) this.skip();
    const stream = await openResultFile(join(directory(), 'table.ndjson'));
    expect(stream).to.not.be.instanceOf(WriteStream);
    stream.end();
    await finished(stream);
  });

  // Lengths around the block (4 KiB) and the staging half (4 MiB): partial blocks, a half filled exactly,
  // a chunk spanning both halves and more, empty chunks.
  const shapes: Record<string, number[]> = {
    'nothing at all': [],
    'one byte': [1],
    'a block less one, a block, a block and one': [4095, 4096, 4097],
    'exactly one staging half': [4 * MiB],
    'chunks that fill both halves and wrap around': [3 * MiB + 17, 0, 3 * MiB + 5, 3 * MiB, 1],
    'one chunk larger than the whole staging buffer': [9 * MiB + 123],
  };
  for (const direct of [true, false]) {
    for (const [shape, lengths] of Object.entries(shapes)) {
      it(`${direct ? 'direct' : 'buffered'}: the file holds exactly the bytes given (${shape})`, async () => {
        const chunks = lengths.map((length) => randomBytes(length));
        const path = join(directory(), 'table.csv');
        await writeAll(await openResultFile(path, { direct }), chunks);
        expect(readFileSync(path).equals(Buffer.concat(chunks))).to.equal(true);
      });
    }
  }

  it('a file written over is cut to its new length', async () => {
    const path = join(directory(), 'table.csv');
    await writeAll(await openResultFile(path), [randomBytes(5 * MiB)]);
    const shorter = randomBytes(10_000);
    await writeAll(await openResultFile(path), [shorter]);
    expect(readFileSync(path).equals(shorter)).to.equal(true);
  });

  it('direct: a write that fails past the start (EIO) fails the stream and closes the file', async function () {
    if (process.platform !== 'linux' || statfsSync(tmpdir()).type === TMPFS_MAGIC) this.skip();
    // The probing write at the start succeeds; the device then fails, as a dying disk would.
    const failing = (write: FileHandleMethod): FileHandleMethod =>
      function (this: { fd: number }, ...args: unknown[]) {
        return (args[3] as number) > 0
          ? Promise.reject(Object.assign(new Error('EIO: i/o error, write'), { code: 'EIO' }))
          : write.apply(this, args);
      };
    await withFileHandleMethod('write', failing, async () => {
      const stream = await openResultFile(join(directory(), 'table.csv'));
      expect(stream).to.not.be.instanceOf(WriteStream);
      const error = await writeAll(stream, [randomBytes(5 * MiB), randomBytes(5 * MiB), randomBytes(5 * MiB)]).then(
        () => null,
        (reason: NodeJS.ErrnoException) => reason,
      );
      expect(error?.code).to.equal('EIO');
      await new Promise((resolve) => (stream.closed ? resolve(null) : stream.once('close', resolve)));
      expect(stream.destroyed).to.equal(true);
    });
  });

  it('direct: a short write (a device filling up writes part of what it was given) is carried on, not left as a hole', async function () {
    if (process.platform !== 'linux' || statfsSync(tmpdir()).type === TMPFS_MAGIC) this.skip();
    // Every write of more than a block writes only the first half of it, in whole blocks, as write(2) may.
    const short = (write: FileHandleMethod): FileHandleMethod =>
      function (this: { fd: number }, ...args: unknown[]) {
        const [buffer, offset, length, position] = args as [Uint8Array, number, number, number];
        const half = length > 4096 ? Math.floor(length / 2 / 4096) * 4096 : length;
        return write.call(this, buffer, offset, half, position);
      };
    await withFileHandleMethod('write', short, async () => {
      const path = join(directory(), 'table.csv');
      const chunks = [randomBytes(5 * MiB + 3), randomBytes(4097)];
      const stream = await openResultFile(path);
      expect(stream).to.not.be.instanceOf(WriteStream);
      await writeAll(stream, chunks);
      expect(readFileSync(path).equals(Buffer.concat(chunks))).to.equal(true);
    });
  });

  it('staging memory refused (an address-space limit) writes through the page cache and leaves no file open', async function () {
    if (process.platform !== 'linux' || statfsSync(tmpdir()).type === TMPFS_MAGIC) this.skip();
    const webAssembly = (
      globalThis as unknown as { WebAssembly: { Memory: new (size: { initial: number }) => unknown } }
    ).WebAssembly;
    const Memory = webAssembly.Memory;
    // A page or so is granted, the megabytes of a staging buffer are not: as under a limit already near.
    webAssembly.Memory = function (size: { initial: number }) {
      if (size.initial > 1) throw new RangeError('WebAssembly.Memory(): could not allocate memory');
      return new Memory(size);
    } as unknown as typeof Memory;
    try {
      // A copy of the module of its own, which takes the Memory it finds now.
      const specifier = '../../../core/jobs/direct-file.js?memory-refused';
      const { openResultFile: openRefused } = (await import(
        specifier
      )) as typeof import('../../../core/jobs/direct-file.js');
      const path = join(directory(), 'table.csv');
      const openOnFile = () =>
        readdirSync('/proc/self/fd').filter((fd) => {
          try {
            return readlinkSync(`/proc/self/fd/${fd}`) === path;
          } catch {
            return false; // closed since it was listed
          }
        });
      const stream = await openRefused(path);
      expect(stream).to.be.instanceOf(WriteStream);
      await writeAll(stream, [Buffer.from('id\n')]);
      expect(readFileSync(path, 'utf8')).to.equal('id\n');
      expect(openOnFile()).to.deep.equal([]);
    } finally {
      webAssembly.Memory = Memory;
    }
  });

  it('a device that refuses the probing write is written through the page cache, and its own error fails the stream (/dev/full: ENOSPC)', async () => {
    const stream = await openResultFile('/dev/full');
    expect(stream).to.be.instanceOf(WriteStream);
    const failed = writeAll(stream, [randomBytes(5 * MiB), randomBytes(5 * MiB)]);
    const error = await failed.then(
      () => null,
      (reason: NodeJS.ErrnoException) => reason,
    );
    expect(error?.code).to.equal('ENOSPC');
    expect(stream.destroyed).to.equal(true);
  });
});
