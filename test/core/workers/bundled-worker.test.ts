import { expect } from 'chai';
import { readdir, readFile, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { bundledWorker } from '../../../core/workers/bundled-worker.js';

const entry = new URL('./fixtures/entry.ts', import.meta.url);

function run(url: URL, workerData: unknown): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(url, { workerData });
    worker.once('message', (message) => void worker.terminate().then(() => resolve(message)));
    worker.once('error', reject);
  });
}

describe('bundled workers', function () {
  this.timeout(30_000);

  it('runs a TypeScript entry as one plain JavaScript module, with its local modules and packages', async () => {
    const url = await bundledWorker(entry);
    expect(url.pathname).to.match(/\/finsynth-workers-\d+\/[0-9a-f]{20}\/entry\.js$/);
    expect(await run(url, { lazy: false })).to.deep.equal({ greeting: 'hello, worker', valid: true, lazy: null });
    expect(await run(url, { lazy: true })).to.deep.include({ lazy: 'loaded when asked for' });
  });

  it('keeps a dynamically imported module in a file of its own, and packages where they are installed', async () => {
    const url = await bundledWorker(entry);
    const files = await readdir(dirname(fileURLToPath(url)));
    expect(files.filter((file) => file.startsWith('lazy-'))).to.have.length(1);
    const code = await readFile(url, 'utf8');
    expect(code).not.to.contain('loaded when asked for');
    expect(code).to.match(/from "file:\/\/\/[^"]*node_modules\/ajv\//);
  });

  it('is built once per process and entry', () => {
    expect(bundledWorker(entry)).to.equal(bundledWorker(entry));
  });

  it('keeps its bundles in a directory only this user may write to', async () => {
    const { mode, uid } = await stat(dirname(dirname(fileURLToPath(await bundledWorker(entry)))));
    expect(mode & 0o077).to.equal(0);
    expect(uid).to.equal(process.getuid!());
  });
});
