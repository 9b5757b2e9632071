import { expect } from 'chai';
import { existsSync, readlinkSync, rmSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { writeResultFile } from '../../core/jobs/result-files.js';
import { tempDir } from './support/instance.js';

async function* chunksOf(...texts: string[]): AsyncIterable<Uint8Array> {
  for (const text of texts) yield Buffer.from(text);
}

describe('result files', () => {
  let directory: string;
  beforeEach(() => (directory = tempDir('result-files')));
  afterEach(() => rmSync(directory, { recursive: true, force: true }));

  it('the rename into place is made durable: the directory is synced once the file has its final name', async function () {
    // What each sync was of is read from /proc.
    if (process.platform !== 'linux') this.skip();
    const probe = await open(join(directory, 'probe'), 'w');
    const prototype = Object.getPrototypeOf(probe) as { sync: (this: { fd: number }) => Promise<void> };
    await probe.close();
    const sync = prototype.sync;
    const synced: { path: string; renamed: boolean }[] = [];
    prototype.sync = function (this: { fd: number }) {
      synced.push({ path: readlinkSync(`/proc/self/fd/${this.fd}`), renamed: existsSync(join(directory, 'accounts.csv')) });
      return sync.call(this);
    };
    try {
      await writeResultFile({ directory, file: 'accounts.csv', partFile: 'accounts.csv.1.part', compression: 'none', chunks: chunksOf('id\n', '1\n') });
    } finally {
      prototype.sync = sync;
    }
    expect(synced).to.deep.include({ path: directory, renamed: true });
  });
});
