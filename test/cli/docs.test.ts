import { expect } from 'chai';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { finsynth, killAll } from './support/finsynth.js';

const read = (file: string) => readFile(new URL(`../../${file}`, import.meta.url), 'utf8');

describe('what the README and the pack guide tell a new user to run', function () {
  this.timeout(120_000);
  let dir: string;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'finsynth-docs-'));
  });
  after(async () => {
    killAll();
    await rm(dir, { recursive: true, force: true });
  });

  it("the README's quickstart generates its config without a server, into the files it names", async () => {
    const readme = await read('README.md');
    const section = readme.slice(readme.indexOf('## Generating without a server'));
    const config = /```yaml\n([\s\S]*?)```/.exec(section)![1];
    const command = /npx finsynth generate cards\.yaml --out data\/ +#/.exec(section);
    expect(command, 'the README shows finsynth generate').to.not.equal(null);
    await writeFile(join(dir, 'cards.yaml'), config);
    const generated = await finsynth(['generate', 'cards.yaml', '--out', 'data/', '--quiet'], { cwd: dir });
    expect(generated.code, generated.stderr).to.equal(0);
    expect(await readdir(join(dir, 'data'))).to.include('transactions.csv.gz');
  });

  it('the pack guide starts with finsynth pack new, and its commands are those the CLI has', async () => {
    const guide = await read('docs/pack-author-guide.md');
    const start = /```sh\n([\s\S]*?)```/.exec(guide)!;
    expect(guide.slice(0, start.index)).to.match(/^# Writing a sector pack\n\nStart with a scaffold/);
    const commands = start[1].split('\n').filter((line) => line.includes('npx finsynth'));
    expect(commands[0]).to.match(/^npx finsynth pack new savings /);
    for (const line of commands) {
      const [name, sub] = line.slice(line.indexOf('npx finsynth ') + 'npx finsynth '.length).split(' ');
      const help = await finsynth(name === 'pack' ? [name, sub, '--help'] : [name, '--help']);
      expect(help.code, line).to.equal(0);
    }
  });
});
