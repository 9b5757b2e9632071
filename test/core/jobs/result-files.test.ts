import { expect } from 'chai';
import { existsSync, fstatSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { writeResultFile } from '../../../core/jobs/result-files.js';
import { withFileHandleMethod, type FileHandleMethod } from './support/file-handle.js';
import { tempDir } from './support/instance.js';

async function* chunksOf(...texts: string[]): AsyncIterable<Uint8Array> {
  for (const text of texts) yield Buffer.from(text);
}

async function writeAccounts(directory: string): Promise<void> {
  await writeResultFile({
    directory,
    file: 'accounts.csv',
    partFile: 'accounts.csv.1.part',
    compression: 'none',
    chunks: chunksOf('id\n', '1\n'),
  });
}

describe('result files', () => {
  let directory: string;
  beforeEach(() => (directory = tempDir('result-files')));
  afterEach(() => rmSync(directory, { recursive: true, force: true }));

  it('the rename into place is made durable: the directory is synced once the file has its final name', async function () {
    // What each sync was of is read from /proc.
    if (process.platform !== 'linux') this.skip();
    const synced: { path: string; renamed: boolean }[] = [];
    const watched = (sync: FileHandleMethod): FileHandleMethod =>
      function (this: { fd: number }) {
        synced.push({
          path: readlinkSync(`/proc/self/fd/${this.fd}`),
          renamed: existsSync(join(directory, 'accounts.csv')),
        });
        return sync.call(this);
      };
    await withFileHandleMethod('sync', watched, () => writeAccounts(directory));
    expect(synced).to.deep.include({ path: directory, renamed: true });
  });

  it('a file system that cannot flush a directory (EINVAL) still gets its table', async function () {
    if (process.platform === 'win32') this.skip();
    const refusedForDirectories = (sync: FileHandleMethod): FileHandleMethod =>
      function (this: { fd: number }) {
        return fstatSync(this.fd).isDirectory()
          ? Promise.reject(Object.assign(new Error('EINVAL: invalid argument, fsync'), { code: 'EINVAL' }))
          : sync.call(this);
      };
    await withFileHandleMethod('sync', refusedForDirectories, () => writeAccounts(directory));
    expect(readFileSync(join(directory, 'accounts.csv'), 'utf8')).to.equal('id\n1\n');
  });
});
