import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { access, readFile, rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { openAccount, startTestApp, type TestApp } from '../../support/app.js';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const PACKAGE = fileURLToPath(new URL('../../../clients/typescript/', import.meta.url));
const DIST = `${PACKAGE}dist`;

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

describe('@finsynth/client: the package as it is published', function () {
  // Bounds, not assertions: a TypeScript build of the package takes seconds on a loaded machine.
  this.timeout(180_000);
  let app: TestApp;
  /** A build that was there before the test is left, rebuilt; one the test made is removed. */
  let hadDist: boolean;

  before(async () => {
    hadDist = await exists(DIST);
    app = await startTestApp();
    await run(process.execPath, [`${ROOT}node_modules/typescript/bin/tsc`, '-p', `${PACKAGE}tsconfig.json`]);
  });
  after(async () => {
    await app?.close();
    if (hadDist === false) await rm(DIST, { recursive: true, force: true });
  });

  it('packs its build, its README and its package.json, and no source', async () => {
    const { stdout } = await run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts', '--workspace', PACKAGE], {
      cwd: ROOT,
    });
    const files: string[] = JSON.parse(stdout)[0].files.map((file: { path: string }) => file.path);
    expect(files).to.include.members(['package.json', 'README.md', 'dist/index.js', 'dist/index.d.ts']);
    expect(files.filter((file) => !file.startsWith('dist/'))).to.have.members(['package.json', 'README.md']);
    const manifest = JSON.parse(await readFile(`${PACKAGE}package.json`, 'utf8'));
    for (const target of Object.values<string>(manifest.exports['.'])) {
      expect(files).to.include(target.replace(/^\.\//, ''));
    }
  });

  it('runs on plain Node (no TypeScript loader) when imported as @finsynth/client', async () => {
    const account = await openAccount(app);
    const script = [
      "const client = await import('@finsynth/client');",
      `const finsynth = new client.Finsynth({ apiKey: '${account.test}', baseUrl: '${app.url}' });`,
      "const generated = await finsynth.generate.quick({ sector: 'cards', tables: [{ name: 'cards', rows: 3 }] });",
      'const failure = await finsynth.jobs.retrieve("job_00").catch((error) => error);',
      'console.log(JSON.stringify({',
      '  rows: generated.rows,',
      '  error: failure instanceof client.NotFoundError && failure instanceof client.FinsynthError,',
      '  verify: typeof client.verifyWebhook,',
      '}));',
    ].join('\n');
    // The child is plain Node: the mocha process's loader is given on its command line, not in NODE_OPTIONS.
    const { stdout } = await run(process.execPath, ['--input-type=module', '--eval', script], { cwd: ROOT });
    expect(JSON.parse(stdout)).to.deep.equal({ rows: 3, error: true, verify: 'function' });
  });
});
