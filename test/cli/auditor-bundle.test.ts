import { expect } from 'chai';
import { appendFile, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { finsynth, killAll, type Ran } from './support/finsynth.js';

const cli = (file: string) => fileURLToPath(new URL(`../../cli/${file}`, import.meta.url));
const MARK = 'started from the kept bundle';

describe("the auditor's tools start from a bundle of the command line", function () {
  this.timeout(60_000);
  // The bundles of these runs are kept in a temporary directory of their own, never in the one other runs share.
  let temporary: string;
  const env = () => ({ TMPDIR: temporary });
  const bundles = () => join(temporary, `finsynth-workers-${process.getuid!()}`);

  let first: Ran;

  before(async () => {
    temporary = await mkdtemp(join(tmpdir(), 'finsynth-auditor-bundle-'));
    first = await finsynth(['audit', 'verify', '--help'], { env: env() });
  });

  after(async () => {
    killAll();
    await rm(temporary, { recursive: true, force: true });
  });

  it('is built by the first run of one, with their modules and none of the other commands', async () => {
    expect(first.code).to.equal(0);
    expect(first.stdout).to.match(/^usage: finsynth audit verify BUNDLE/);
    const records = (await readdir(bundles())).filter((name) => name.endsWith('.json'));
    expect(records).to.have.length(1);
    const record = JSON.parse(await readFile(join(bundles(), records[0]), 'utf8'));
    expect(record.sources).to.include.keys(cli('main.ts'), cli('audit-verify.ts'), cli('audit-witness.ts'));
    expect(record.sources).not.to.have.any.keys(cli('serve.ts'), cli('generate.ts'), cli('audit-replay.ts'));
    // The other commands are imported from their sources, where the loader a run of them registers reads them.
    const entry = await readFile(join(bundles(), record.directory, 'entry.mjs'), 'utf8');
    expect(entry).to.contain(JSON.stringify(`file://${cli('serve.ts')}`));
  });

  it('runs the kept bundle for verify and witness, and the sources for every other command', async () => {
    const [record] = (await readdir(bundles())).filter((name) => name.endsWith('.json'));
    const { directory } = JSON.parse(await readFile(join(bundles(), record), 'utf8'));
    // Marked, so that what runs can be told apart: the record keeps the sources' hashes, not the bundle's.
    await appendFile(join(bundles(), directory, 'entry.mjs'), `\nprocess.stderr.write(${JSON.stringify(MARK)});\n`);
    for (const tool of ['verify', 'witness']) {
      const ran = await finsynth(['audit', tool, '--help'], { env: env() });
      expect(ran.code, tool).to.equal(0);
      expect(ran.stderr, tool).to.equal(MARK);
    }
    for (const command of [['audit', 'rebuild-log'], ['accounts', 'create'], ['serve']]) {
      const ran = await finsynth([...command, '--help'], { env: env() });
      expect(ran.code, command.join(' ')).to.equal(0);
      expect(ran.stderr, command.join(' ')).to.equal('');
    }
  });
});
