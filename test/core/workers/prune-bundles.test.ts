import { expect } from 'chai';
import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pruneBundles, STAGING_KEPT_MS, UNREFERENCED_KEPT_MS } from '../../../core/workers/prune-bundles.js';

const HOUR = 60 * 60 * 1000;
const named = (digit: string) => digit.repeat(20);

describe('pruning the directory of bundles', () => {
  let bundles: string;
  const now = Date.now();

  beforeEach(async () => {
    bundles = await mkdtemp(join(tmpdir(), 'finsynth-prune-'));
  });
  afterEach(() => rm(bundles, { recursive: true, force: true }));

  /** A bundle's directory (or any entry) written `age` ms before now. */
  async function written(name: string, age: number, file = false): Promise<void> {
    const path = join(bundles, name);
    if (file) await writeFile(path, '');
    else await mkdir(path);
    const at = new Date(now - age);
    await utimes(path, at, at);
  }

  it('removes the old bundles no record names and old staging leftovers, and keeps everything else', async () => {
    // given a record naming one old bundle, and bundles and leftovers of each age
    const record = { build: 2, esbuild: '0', sources: {}, packages: [], directory: named('a'), files: [] };
    await writeFile(join(bundles, `${named('f')}.json`), JSON.stringify(record));
    await written(named('a'), UNREFERENCED_KEPT_MS + HOUR);
    await written(named('b'), UNREFERENCED_KEPT_MS + HOUR);
    await written(named('c'), UNREFERENCED_KEPT_MS - HOUR);
    await written(`${named('d')}.123.456`, STAGING_KEPT_MS + HOUR);
    await written(`${named('f')}.json.123.456`, STAGING_KEPT_MS + HOUR, true);
    await written(`${named('e')}.123.789`, STAGING_KEPT_MS - HOUR);
    await written('notes', UNREFERENCED_KEPT_MS + HOUR);
    // when pruned
    const removed = await pruneBundles(bundles, now);
    // then only the unnamed old bundle and the old staging leftovers are gone
    expect(removed.sort()).to.deep.equal([named('b'), `${named('d')}.123.456`, `${named('f')}.json.123.456`]);
    expect((await readdir(bundles)).sort()).to.deep.equal(
      [named('a'), named('c'), `${named('e')}.123.789`, `${named('f')}.json`, 'notes'].sort(),
    );
  });

  it('takes a record that is not one as naming nothing: its bundle goes once old', async () => {
    await writeFile(join(bundles, `${named('f')}.json`), '{"esbuild": 1}');
    await written(named('a'), UNREFERENCED_KEPT_MS + HOUR);
    expect(await pruneBundles(bundles, now)).to.deep.equal([named('a')]);
  });
});
