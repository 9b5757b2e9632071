import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openAccount, request, startTestApp, type TestAccount, type TestApp } from '../support/app.js';
import { download, pollJob } from '../core/jobs/support/http.js';
import { finsynth, killAll, output, start } from './support/finsynth.js';

/** A config with a per-parent table and the tables it references (delivered too, as jobs deliver them). */
const configYaml = (format: string, compression: string) => `version: 1
sector: banking
seed: 4242
tables:
  - name: transactions
    rows: 25000
    columns:
      amount: { distribution: lognormal, mu: 3.1, sigma: 1.2 }
output: { format: ${format}, compression: ${compression} }
`;

describe('finsynth generate', function () {
  this.timeout(180_000);
  let dir: string;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'finsynth-generate-'));
  });
  afterEach(async () => {
    killAll();
    await rm(dir, { recursive: true, force: true });
  });

  describe('against a job of the service', () => {
    let app: TestApp;
    let account: TestAccount;
    before(async () => {
      app = await startTestApp();
      account = await openAccount(app);
    });
    after(() => app.close());

    for (const [format, compression] of [
      ['csv', 'none'],
      ['ndjson', 'none'],
      ['json', 'none'],
      ['csv', 'gzip'],
      ['parquet', 'snappy'],
    ]) {
      it(`writes the same bytes as a job for the same config and seed (${format}, ${compression})`, async () => {
        const yaml = configYaml(format, compression);
        const created = await request(app, 'POST', '/v1/jobs', { key: account.test, body: { config_yaml: yaml } });
        expect(created.status, created.text).to.equal(202);
        const done = await pollJob(app, account.test, created.body.id, ['succeeded', 'failed']);
        expect(done.body.state, JSON.stringify(done.body.failure)).to.equal('succeeded');
        const results = await request(app, 'GET', `/v1/jobs/${created.body.id}/results`, { key: account.test });
        const files: { table: string; file: string }[] = results.body.data.map(({ table }: { table: string }) => ({
          table,
          file: `${table}.${format}${compression === 'gzip' ? '.gz' : ''}`,
        }));
        expect(files.map((file) => file.table)).to.include.members(['transactions', 'accounts', 'customers']);

        await writeFile(join(dir, 'config.yaml'), yaml);
        const generated = await finsynth(['generate', join(dir, 'config.yaml'), '--out', join(dir, 'out')]);
        expect(generated.code, generated.stderr).to.equal(0);
        const reportFiles = ['_report.html', '_report.json'];
        expect((await readdir(join(dir, 'out'))).sort()).to.deep.equal(
          [...reportFiles, ...files.map((f) => f.file)].sort(),
        );
        for (const { table, file } of files) {
          const served = await download(app, account.test, `/v1/jobs/${created.body.id}/results/${table}`);
          expect(served.status).to.equal(200);
          const local = await readFile(join(dir, 'out', file));
          expect(local.length, file).to.be.above(0);
          expect(local.equals(served.bytes), `${file}: the same bytes`).to.equal(true);
        }
      });
    }

    it('writes the conformance report a job of the same config makes by default: its JSON byte for byte, and its page', async () => {
      const yaml = configYaml('csv', 'none');
      const created = await request(app, 'POST', '/v1/jobs', { key: account.test, body: { config_yaml: yaml } });
      const done = await pollJob(app, account.test, created.body.id, ['succeeded', 'failed']);
      expect(done.body.state, JSON.stringify(done.body.failure)).to.equal('succeeded');
      const served = await download(app, account.test, `/v1/jobs/${created.body.id}/report`);
      expect(served.status).to.equal(200);

      await writeFile(join(dir, 'config.yaml'), yaml);
      const generated = await finsynth(['generate', join(dir, 'config.yaml'), '--out', join(dir, 'out')]);
      expect(generated.code, generated.stderr).to.equal(0);
      expect(generated.stderr).to.match(/report: score [\d.]+ → .*_report\.json and _report\.html/);
      expect((await readFile(join(dir, 'out', '_report.json'))).equals(served.bytes)).to.equal(true);
      const page = await readFile(join(dir, 'out', '_report.html'), 'utf8');
      expect(page).to.match(/^<!doctype html>/i);
      expect(page).to.contain('transactions');
    });
  });

  it('overrides the format, compression and seed on the command line, and draws and prints a seed when none is given', async () => {
    const config = join(dir, 'config.yaml');
    await writeFile(config, 'version: 1\nsector: cards\ntables:\n  - name: merchants\n    rows: 300\n');
    const seeded = await finsynth(['generate', config, '--out', join(dir, 'a'), '--format', 'csv', '--seed', '9']);
    expect(seeded.code, seeded.stderr).to.equal(0);
    expect(seeded.stderr).to.contain('seed 9');
    const again = await finsynth(['generate', config, '--out', join(dir, 'b'), '--format', 'csv', '--seed', '9']);
    expect(again.code).to.equal(0);
    const [first, second] = await Promise.all(['a', 'b'].map((run) => readFile(join(dir, run, 'merchants.csv'))));
    expect(first.equals(second)).to.equal(true);
    const drawn = await finsynth(['generate', config, '--out', join(dir, 'c'), '--compression', 'gzip']);
    expect(drawn.code, drawn.stderr).to.equal(0);
    expect(drawn.stderr).to.match(/with seed \d+ \(drawn\)/);
    // The conformance report beside the tables, as every job makes it unless the config turns it off.
    expect((await readdir(join(dir, 'c'))).sort()).to.deep.equal([
      '_report.html',
      '_report.json',
      'merchants.ndjson.gz',
    ]);
  });

  it('prints plain progress lines when stderr is no terminal, and nothing with --quiet', async () => {
    const config = join(dir, 'config.yaml');
    await writeFile(config, 'version: 1\nsector: cards\nseed: 1\ntables:\n  - name: merchants\n    rows: 500\n');
    const plain = await finsynth(['generate', config, '--out', join(dir, 'a')]);
    expect(plain.code).to.equal(0);
    expect(plain.stderr)
      .to.contain('merchants: 500 rows')
      .and.to.match(/rows\/s\) → .*merchants\.ndjson/);
    expect(plain.stderr).not.to.contain('\r').and.not.to.contain('\x1b');
    const quiet = await finsynth(['generate', config, '--out', join(dir, 'b'), '--quiet']);
    expect(quiet).to.include({ code: 0, stdout: '', stderr: '' });
    expect(existsSync(join(dir, 'b', 'merchants.ndjson'))).to.equal(true);
  });

  it('refuses a bad config with each problem at its line and column, exit code 2, writing nothing', async () => {
    const config = join(dir, 'bad.yaml');
    await writeFile(config, 'version: 1\nsector: cards\ntables:\n  - name: transactions\n    rows: -5\n');
    const refused = await finsynth(['generate', config, '--out', join(dir, 'out')]);
    expect(refused.code).to.equal(2);
    expect(refused.stderr).to.contain(`${config}:5:11: /tables/0/rows:`);
    await writeFile(
      config,
      'version: 1\nsector: cards\ntables:\n  - name: merchants\n    rows: 5\n  - name: nothing\n    rows: 1\n',
    );
    const unknown = await finsynth(['generate', config, '--out', join(dir, 'out')]);
    expect(unknown.code).to.equal(2);
    expect(unknown.stderr).to.match(new RegExp(`${config}:6:\\d+: /tables/1/name: .*nothing`));
    expect(existsSync(join(dir, 'out'))).to.equal(false);

    await writeFile(config, 'version: 1\nsector: [cards\n');
    const unreadable = await finsynth(['generate', config, '--out', join(dir, 'out')]);
    expect(unreadable.code).to.equal(2);
    expect(unreadable.stderr).to.match(new RegExp(`${config}:\\d+:\\d+: `));
    const missing = await finsynth(['generate', join(dir, 'none.yaml'), '--out', join(dir, 'out')]);
    expect(missing.code).to.equal(2);
    expect(missing.stderr).to.contain('no such file');
    const usage = await finsynth(['generate', config]);
    expect(usage.code).to.equal(2);
    expect(usage.stderr).to.contain("required option '--out <DIR>' not specified");
  });

  it('stops on SIGINT, leaving no partial file under a final name', async () => {
    const config = join(dir, 'big.yaml');
    await writeFile(
      config,
      'version: 1\nsector: cards\nseed: 1\ntables:\n  - name: transactions\n    rows: 50000000\n' +
        'output: { format: csv }\n',
    );
    const out = join(dir, 'out');
    const child = start(['generate', config, '--out', out]);
    const ended = output(child);
    // Interrupted once the table is being written.
    while (!(existsSync(out) && (await readdir(out)).includes('transactions.csv.part')))
      await new Promise((resolve) => setTimeout(resolve, 50));
    child.kill('SIGINT');
    const { code, stderr } = await ended;
    expect(code).to.equal(1);
    expect(stderr).to.contain('stopped by SIGINT');
    expect(await readdir(out)).to.deep.equal([]);
  });
});
