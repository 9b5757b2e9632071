import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { cliEnv, finsynth } from '../../cli/support/finsynth.js';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../../', import.meta.url));
const example = join(root, 'docs/examples/loyalty');
const tsc = join(root, 'node_modules/.bin/tsc');

/**
 * The example pack as a third party's CI uses it: its folder copied elsewhere, `npm install` with finsynth as a
 * dependency by path (offline: finsynth is linked, nothing is fetched), then the installed `finsynth pack test .`
 * (the test kit and the pack's own test importing finsynth/test-kit) and TypeScript over its imports of finsynth/sdk.
 */
describe('the example pack installed from its own folder', function () {
  this.timeout(180_000);
  let dir: string;

  before(async function () {
    dir = await mkdtemp(join(tmpdir(), 'finsynth-example-'));
    // The package's declarations (npm's prepare builds them at install): built here when this checkout lacks them.
    if (!existsSync(join(root, 'dist/types/core/packs/sdk.d.ts')))
      await run(process.execPath, [tsc, '-p', join(root, 'tsconfig.sdk.json')], { cwd: root });
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('installs with finsynth as a file dependency, passes pack test and type-checks against finsynth/sdk', async () => {
    const pack = join(dir, 'loyalty');
    await cp(example, pack, { recursive: true, filter: (source) => !source.includes('node_modules') });
    const manifest = JSON.parse(await readFile(join(pack, 'package.json'), 'utf8'));
    expect(manifest.peerDependencies).to.have.property('finsynth');
    // The example depends on the checkout it sits in; its copy, on this checkout by its absolute path.
    manifest.devDependencies.finsynth = `file:${root}`;
    await writeFile(join(pack, 'package.json'), JSON.stringify(manifest, null, 2));

    await run('npm', ['install', '--offline', '--no-audit', '--no-fund', '--loglevel=error'], {
      cwd: pack,
      env: cliEnv,
    });
    expect(realpathSync(join(pack, 'node_modules/finsynth'))).to.equal(realpathSync(root));

    const tested = await finsynth(['pack', 'test', '.'], {
      cwd: pack,
      command: [join(pack, 'node_modules/.bin/finsynth')],
    });
    expect(tested.code, tested.stdout + tested.stderr).to.equal(0);
    expect(tested.stdout).to.contain('the pack "loyalty" passes the pack test kit');
    expect(tested.stdout)
      .to.contain('its own tests: test/loyalty.test.ts')
      .and.to.match(/# pass 1\n/);

    await writeFile(
      join(pack, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          types: ['node'],
          typeRoots: [join(root, 'node_modules/@types')],
        },
        include: ['**/*.ts'],
        exclude: ['node_modules'],
      }),
    );
    const checked = await run(process.execPath, [tsc, '-p', pack], { cwd: pack }).then(
      () => '',
      (error: { stdout?: string }) => error.stdout ?? String(error),
    );
    expect(checked, 'tsc over the installed pack').to.equal('');
  });
});
