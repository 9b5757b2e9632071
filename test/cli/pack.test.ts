import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openAccount, request, startTestApp } from '../support/app.js';
import { finsynth, killAll, start } from './support/finsynth.js';

/** A one-table pack importing the SDK by its package name, as a pack written from the guide does. */
const PACK = (name: string) => `import { definePack } from 'finsynth/sdk';

export default definePack({
  name: '${name}',
  version: '1.0.0',
  description: 'A pack in a folder of its own.',
  tables: {
    things: {
      description: 'Things.',
      default_rows: 100,
      credits_per_1000_rows: 1,
      columns: {
        thing_id: { type: 'id', prefix: 'thg', description: 'Key.' },
        size: { type: 'integer', distribution: 'uniform', min: 1, max: 9, description: 'Size.' },
      },
    },
  },
});
`;

describe('finsynth pack new, pack test, pack preview (packs outside finsynth)', function () {
  this.timeout(180_000);
  let dir: string;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'finsynth-packs-'));
  });
  after(async () => {
    killAll();
    await rm(dir, { recursive: true, force: true });
  });

  it('scaffolds a pack that passes pack test, previews, generates with --packs and loads in the service, nothing installed in its folder', async () => {
    const made = await finsynth(['pack', 'new', 'savings', '--dir', dir]);
    expect(made.code, made.stderr).to.equal(0);
    const pack = join(dir, 'savings');
    expect((await readdir(pack)).sort()).to.deep.equal([
      'README.md',
      'index.ts',
      'package.json',
      'test',
      'tsconfig.json',
    ]);
    const manifest = JSON.parse(await readFile(join(pack, 'package.json'), 'utf8'));
    expect(manifest.peerDependencies).to.have.property('finsynth');
    expect(manifest.devDependencies.finsynth).to.match(/^file:/);
    expect(existsSync(join(pack, 'node_modules'))).to.equal(false);

    const tested = await finsynth(['pack', 'test', pack]);
    expect(tested.code, tested.stdout + tested.stderr).to.equal(0);
    expect(tested.stdout).to.contain('the pack "savings" passes the pack test kit: customers (1,500 rows)');
    expect(tested.stdout)
      .to.contain('its own tests: test/pack.test.ts')
      .and.to.match(/# pass 1\n/);

    const preview = await finsynth(['pack', 'preview', pack, '--rows', '3']);
    expect(preview.code, preview.stderr).to.equal(0);
    const lines = preview.stdout.trimEnd().split('\n');
    expect(lines[0]).to.equal('savings.customers, 3 rows, seed 1');
    expect(lines[1]).to.match(/^customer_id +name +email +country +joined_on +segment +balance$/);
    expect(lines.slice(3)).to.have.length(3);
    expect(lines[3]).to.match(/^cus_[0-9a-f]{16} /);

    await writeFile(
      join(dir, 'savings.yaml'),
      'version: 1\nsector: savings\nseed: 2\ntables:\n  - name: customers\n    rows: 40\n',
    );
    const generated = await finsynth([
      'generate',
      join(dir, 'savings.yaml'),
      '--out',
      join(dir, 'out'),
      '--packs',
      pack,
    ]);
    expect(generated.code, generated.stderr).to.equal(0);
    const rows = (await readFile(join(dir, 'out', 'customers.ndjson'), 'utf8')).trimEnd().split('\n');
    expect(rows).to.have.length(40);
    expect(JSON.parse(rows[0])).to.have.keys(
      'customer_id',
      'name',
      'email',
      'country',
      'joined_on',
      'segment',
      'balance',
    );

    const app = await startTestApp({ config: { packs: [pack] } });
    try {
      const account = await openAccount(app);
      const sector = await request(app, 'GET', '/v1/catalog/sectors/savings', { key: account.test });
      expect(sector.status).to.equal(200);
      const quick = await request(app, 'POST', '/v1/generate/quick', {
        key: account.test,
        body: { sector: 'savings', seed: 2, tables: [{ name: 'customers', rows: 40 }] },
        headers: { accept: 'application/x-ndjson' },
      });
      expect(quick.status, quick.text).to.equal(200);
      expect(quick.text.trimEnd().split('\n')).to.deep.equal(rows);
    } finally {
      await app.close();
    }
    expect(existsSync(join(pack, 'node_modules'))).to.equal(false);
  });

  it('loads a pack whose package.json does not say "type": "module", and a folder holding only index.ts', async () => {
    const commonjs = join(dir, 'commonjs');
    await mkdir(commonjs);
    await writeFile(join(commonjs, 'package.json'), '{"name": "commonjs-pack", "version": "1.0.0"}\n');
    await writeFile(join(commonjs, 'index.ts'), PACK('commonjs'));
    const bare = join(dir, 'bare');
    await mkdir(bare);
    await writeFile(join(bare, 'index.ts'), PACK('bare'));
    for (const [pack, name] of [
      [commonjs, 'commonjs'],
      [bare, 'bare'],
    ]) {
      const preview = await finsynth(['pack', 'preview', pack, '--rows', '2']);
      expect(preview.code, preview.stderr).to.equal(0);
      expect(preview.stdout).to.contain(`${name}.things, 2 rows`);
      const tested = await finsynth(['pack', 'test', pack, '--rows', '300']);
      expect(tested.code, tested.stderr).to.equal(0);
    }
  });

  it('refuses a pack with a syntax error or one that throws, naming pack, file, line and cause, with exit code 1', async () => {
    const broken = join(dir, 'broken');
    await mkdir(broken);
    await writeFile(join(broken, 'index.ts'), PACK('broken').replace("version: '1.0.0',", "version: '1.0.0'"));
    const syntax = await finsynth(['pack', 'test', broken]);
    expect(syntax.code).to.equal(1);
    expect(syntax.stderr).to.contain(`sector pack "broken" from ${broken} refused`);
    expect(syntax.stderr).to.contain(
      `${join(broken, 'index.ts')}:6:2: syntax error: Expected "}" but found "description"`,
    );

    const throwing = join(dir, 'throwing');
    await mkdir(throwing);
    await writeFile(
      join(throwing, 'index.ts'),
      "import { definePack } from 'finsynth/sdk';\n\nconst tables = JSON.parse('{');\n" +
        "export default definePack({ name: 'throwing', version: '1.0.0', description: 'x', tables });\n",
    );
    const thrown = await finsynth(['pack', 'preview', throwing]);
    expect(thrown.code).to.equal(1);
    expect(thrown.stderr)
      .to.contain(`${join(throwing, 'index.ts')}:3:`)
      .and.to.contain('SyntaxError');
  });

  it('refuses bad usage with exit code 2: a name that cannot be a sector, a folder in use, a path with no pack', async () => {
    for (const args of [
      ['pack', 'new', 'Bad-Name', '--dir', dir],
      ['pack', 'new', 'savings', '--dir', dir],
      ['pack', 'test', join(dir, 'nowhere')],
      ['pack', 'preview', join(dir, 'savings'), '--table', 'nothing'],
      ['pack', 'frobnicate'],
    ]) {
      const refused = await finsynth(args);
      expect(refused.code, args.join(' ')).to.equal(2);
      expect(refused.stdout).to.equal('');
      expect(refused.stderr).to.match(/finsynth pack/);
    }
  });
});

describe('finsynth catalog', function () {
  this.timeout(60_000);

  it('prints the sectors, a sector, a table, as text or JSON; an unknown sector or table is bad usage', async () => {
    const sectors = await finsynth(['catalog']);
    expect(sectors.code).to.equal(0);
    for (const sector of ['banking', 'cards', 'insurance', 'lending', 'markets'])
      expect(sectors.stdout).to.match(new RegExp(`\\n${sector} +\\d+\\.\\d+\\.\\d+ `));
    const cards = await finsynth(['catalog', 'cards']);
    expect(cards.stdout).to.match(/\ntransactions +\d+ +\d+ +cards +/);
    const table = await finsynth(['catalog', 'cards', 'transactions', '--json']);
    expect(table.code).to.equal(0);
    const described = JSON.parse(table.stdout);
    expect(described.name).to.equal('transactions');
    expect(described.columns.map((column: { name: string }) => column.name)).to.include('amount');
    // Each column's Parquet type, as the API's catalog shows it.
    const amount = described.columns.find((column: { name: string }) => column.name === 'amount');
    expect(amount.parquet_type).to.equal('DECIMAL(18,4)');
    const text = await finsynth(['catalog', 'cards', 'transactions']);
    expect(text.stdout).to.match(/\namount +money +DECIMAL\(18,4\) +/);
    for (const args of [
      ['catalog', 'nothing'],
      ['catalog', 'cards', 'nothing'],
    ]) {
      const refused = await finsynth(args);
      expect(refused.code).to.equal(2);
      expect(refused.stderr).to.match(/finsynth catalog: .*nothing/);
    }
  });

  it('ends quietly when its reader stops early (| head)', async () => {
    const child = start(['catalog', '--json']);
    // The pipe closed before the command writes, as head closes it once it has its lines: no write can succeed.
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect({ code, stderr }).to.deep.equal({ code: 0, stderr: '' });
  });
});
