import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { bundledWorker, keptOrBuilt, startBundled } from '../../../core/workers/bundled-worker.js';
import { exists, recordPath } from '../../../core/workers/bundle-record.mjs';

const entry = new URL('./fixtures/entry.ts', import.meta.url);

function run(url: URL, workerData: unknown, start = startBundled): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const worker = start(url, { workerData });
    worker.once('message', (message) => void worker.terminate().then(() => resolve(message)));
    worker.once('error', reject);
  });
}

describe('bundled workers', function () {
  this.timeout(30_000);

  it('runs a TypeScript entry as one plain JavaScript module, with its local modules and packages', async () => {
    const url = await bundledWorker(entry);
    expect(url.pathname).to.match(/\/finsynth-workers-\d+\/[0-9a-f]{20}\/entry\.mjs$/);
    expect(await run(url, { lazy: false })).to.deep.equal({
      greeting: 'hello, worker',
      valid: true,
      lazy: null,
      execArgv: [],
    });
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

  it("starts with none of this process's Node options, so without the loader the tests run under", async () => {
    const url = await bundledWorker(entry);
    expect(process.execArgv).to.include('--import=tsx');
    expect(await run(url, { lazy: false }, (at, options) => new Worker(at, options))).to.deep.include({
      execArgv: process.execArgv,
    });
    expect(await run(url, { lazy: false })).to.deep.include({ execArgv: [] });
  });

  it('is built once per process and entry', () => {
    expect(bundledWorker(entry)).to.equal(bundledWorker(entry));
  });

  it('keeps its bundles in a directory only this user may write to', async () => {
    const { mode, uid } = await stat(dirname(dirname(fileURLToPath(await bundledWorker(entry)))));
    expect(mode & 0o077).to.equal(0);
    expect(uid).to.equal(process.getuid!());
  });

  describe('kept between processes', () => {
    let copy: string;
    let entryCopy: URL;
    const bundleDirectories = new Set<string>();
    const built = async () => {
      const url = await keptOrBuilt(entryCopy);
      bundleDirectories.add(dirname(fileURLToPath(url)));
      return url;
    };
    const record = async () => recordPath(dirname(dirname(fileURLToPath(await built()))), fileURLToPath(entryCopy));

    beforeEach(async () => {
      // Beside the fixtures, so that the copy's package imports resolve as theirs do.
      copy = await mkdtemp(join(fileURLToPath(new URL('.', import.meta.url)), 'fixtures-copy-'));
      await cp(fileURLToPath(new URL('./fixtures', import.meta.url)), copy, { recursive: true });
      entryCopy = new URL(`file://${join(copy, 'entry.ts')}`);
    });

    afterEach(async () => {
      await rm(await record(), { force: true });
      for (const directory of bundleDirectories) await rm(directory, { recursive: true, force: true });
      bundleDirectories.clear();
      await rm(copy, { recursive: true, force: true });
    });

    it('starts the kept bundle while its sources are unchanged, without building it again', async () => {
      const first = await built();
      const path = await record();
      const { mtimeMs } = await stat(path);
      expect(JSON.parse(await readFile(path, 'utf8')).sources).to.have.keys(
        join(copy, 'entry.ts'),
        join(copy, 'greeting.ts'),
        join(copy, 'lazy.ts'),
      );
      expect((await built()).href).to.equal(first.href);
      expect((await stat(path)).mtimeMs).to.equal(mtimeMs);
    });

    it('builds again once a source changed, and the worker runs the change', async () => {
      const first = await built();
      await writeFile(join(copy, 'greeting.ts'), 'export const greeting = (name: string): string => `hi, ${name}`;\n');
      const second = await built();
      expect(second.href).not.to.equal(first.href);
      expect(await run(second, { lazy: false })).to.deep.include({ greeting: 'hi, worker' });
    });

    it('removes, as it builds, an old bundle that no record names', async () => {
      // given a bundle written eight days ago that no record names (an older build of a changed source)
      const bundles = dirname(dirname(fileURLToPath(await built())));
      const stale = join(bundles, randomBytes(10).toString('hex'));
      await mkdir(stale);
      const eightDaysAgo = new Date(Date.now() - 8 * 24 * 60 * 60 * 1000);
      await utimes(stale, eightDaysAgo, eightDaysAgo);
      // when a changed source is built again, then it is gone
      await writeFile(join(copy, 'greeting.ts'), 'export const greeting = (name: string): string => `hey, ${name}`;\n');
      await built();
      expect(await exists(stale)).to.equal(false);
    });

    it('builds again when the kept bundle is gone, or its record is not one', async () => {
      const first = await built();
      await rm(dirname(fileURLToPath(first)), { recursive: true });
      expect(await run(await built(), { lazy: false })).to.deep.include({ greeting: 'hello, worker' });
      await writeFile(await record(), '{"esbuild": 1}');
      expect(await run(await built(), { lazy: false })).to.deep.include({ greeting: 'hello, worker' });
    });
  });
});
