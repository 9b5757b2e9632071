import { expect } from 'chai';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../../core/settings/settings.js';
import { createServices } from '../../core/services/services.js';
import { accountStream } from '../../core/accounts/account.js';
import { freePort } from '../support/ports.js';

const bin = fileURLToPath(new URL('../../bin/finsynth.js', import.meta.url));
/** The embedded store, whatever the environment of the test run says (CI sets postgres and redis). */
const env = {
  ...process.env,
  FINSYNTH_POSTGRES_URL: '',
  FINSYNTH_KURRENTDB_URL: '',
  FINSYNTH_REDIS_URL: '',
  FINSYNTH_LOG_LEVEL: 'warn',
};

/** Children still running when a test ends (a failed assertion) are killed, never left serving. */
const running = new Set<ChildProcessWithoutNullStreams>();

function finsynth(args: string[]): ChildProcessWithoutNullStreams {
  const child = spawn(process.execPath, [bin, ...args], { env });
  running.add(child);
  child.on('close', () => running.delete(child));
  return child;
}

async function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = finsynth(args);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return { code, stdout, stderr };
}

/** Starts `finsynth serve` and resolves once it answers /healthz, with what it printed until then. */
async function serve(
  dataDir: string,
  port: number,
): Promise<{ child: ChildProcessWithoutNullStreams; output: () => string }> {
  const child = finsynth(['serve', '--port', String(port), '--data', dataDir]);
  let output = '';
  let exited = false;
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  child.on('close', () => (exited = true));
  while (
    !(await fetch(`http://127.0.0.1:${port}/healthz`).then(
      (response) => response.ok,
      () => false,
    ))
  ) {
    if (exited) throw new Error(`serve exited: ${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { child, output: () => output };
}

async function stop(child: ChildProcessWithoutNullStreams): Promise<number | null> {
  const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
  child.kill('SIGTERM');
  return closed;
}

const JSON_LINE = new RegExp(
  String.raw`^\{"account_id": "(acc_[0-9A-Za-z]{20})", ` +
    String.raw`"keys": \{"live": "(svc_live_[0-9A-Za-z]{32})", "test": "(svc_test_[0-9A-Za-z]{32})"\}\}\n$`,
);

describe('operator commands', function () {
  this.timeout(60_000);
  let dataDir: string;

  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'finsynth-cli-'));
  });
  afterEach(async () => {
    for (const child of running) child.kill('SIGKILL');
    await rm(dataDir, { recursive: true, force: true });
  });

  async function balanceAndGrants(accountId: string) {
    const services = await createServices(loadConfig({}, { dataDir, logLevel: 'silent' }), { background: false });
    try {
      const events = await services.store.readStream(accountStream(accountId));
      const opened = events.find((event) => event.type === 'AccountOpened')!.data as { billing?: string };
      return {
        balance: await services.credits.balance(accountId),
        grants: events.filter((event) => event.type === 'CreditsGranted').length,
        billing: opened.billing,
      };
    } finally {
      await services.close();
    }
  }

  it('accounts create --json prints exactly the account id and its two keys, and grants exactly --credits in one event', async () => {
    const { code, stdout } = await run([
      'accounts',
      'create',
      '--tier',
      'developer',
      '--credits',
      '1234',
      '--json',
      '--data',
      dataDir,
    ]);
    expect(code).to.equal(0);
    const match = JSON_LINE.exec(stdout);
    expect(match, stdout).to.not.equal(null);
    expect(JSON.parse(stdout).account_id).to.equal(match![1]);
    const { balance, grants } = await balanceAndGrants(match![1]!);
    expect(balance.credits_available).to.equal(1234);
    expect(grants).to.equal(1);
  });

  it("accounts create without --credits grants the tier's monthly allowance", async () => {
    const { stdout } = await run(['accounts', 'create', '--tier', 'team', '--json', '--data', dataDir]);
    const { balance } = await balanceAndGrants(JSON.parse(stdout).account_id);
    expect(balance.credits_available).to.equal(300_000);
  });

  it('accounts create opens an invoiced account unless --billing card asks for card billing', async () => {
    const invoiced = await run(['accounts', 'create', '--tier', 'team', '--json', '--data', dataDir]);
    expect((await balanceAndGrants(JSON.parse(invoiced.stdout).account_id)).billing).to.equal('invoice');
    const card = await run(['accounts', 'create', '--tier', 'team', '--billing', 'card', '--json', '--data', dataDir]);
    expect((await balanceAndGrants(JSON.parse(card.stdout).account_id)).billing).to.equal('card');
  });

  it('refuses bad arguments with exit code 2 and nothing on stdout', async () => {
    for (const args of [
      ['accounts', 'create', '--tier', 'gold', '--json'],
      ['accounts', 'create', '--tier', 'free', '--credits', '-5'],
      ['accounts', 'delete'],
      ['accounts', 'create', '--tier', 'free', '--colour'],
      ['accounts', 'create', '--tier', 'free', '--billing', 'cash'],
    ]) {
      const { code, stdout, stderr } = await run([...args, '--data', dataDir]);
      expect(code, args.join(' ')).to.equal(2);
      expect(stdout).to.equal('');
      expect(stderr).to.match(/finsynth accounts/);
    }
  });

  it('answers --help on every command with its usage on stdout and exit code 0', async () => {
    for (const command of ['serve', 'accounts', 'audit']) {
      for (const flag of ['--help', '-h']) {
        const { code, stdout, stderr } = await run([command, flag, '--data', dataDir]);
        expect(code, `${command} ${flag}`).to.equal(0);
        expect(stdout).to.match(new RegExp(`^usage: finsynth ${command}`));
        expect(stdout).to.match(/--data DIR/);
        expect(stderr).to.equal('');
      }
    }
    const main = await run(['--help']);
    expect(main.code).to.equal(0);
    for (const command of ['serve', 'accounts', 'audit']) expect(main.stdout).to.match(new RegExp(`\\n  ${command} `));
    const unknown = await run(['frobnicate']);
    expect(unknown).to.include({ code: 2, stdout: '' });
    expect(unknown.stderr).to.match(/^usage: finsynth <command>/);
  });

  it('serve opens a local account on first start, prints its keys once, serves, and stops on SIGTERM', async () => {
    const port = await freePort();
    const first = await serve(dataDir, port);
    const live = /live key: (svc_live_\w+)/.exec(first.output())?.[1];
    const test = /test key: (svc_test_\w+)/.exec(first.output())?.[1];
    expect(live).to.be.a('string');
    expect(test).to.be.a('string');
    const keys = await fetch(`http://127.0.0.1:${port}/v1/keys`, { headers: { authorization: `Bearer ${live}` } });
    expect(keys.status).to.equal(200);

    // An account created by the CLI while the server runs on the same store is served within moments.
    const created = await run(['accounts', 'create', '--tier', 'free', '--json', '--data', dataDir]);
    const newKey = JSON.parse(created.stdout).keys.live as string;
    let status = 0;
    for (let attempt = 0; attempt < 100 && status !== 200; attempt += 1) {
      status = (await fetch(`http://127.0.0.1:${port}/v1/keys`, { headers: { authorization: `Bearer ${newKey}` } }))
        .status;
      if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(status).to.equal(200);
    expect(await stop(first.child)).to.equal(0);

    const second = await serve(dataDir, port);
    expect(second.output()).not.to.match(/live key/);
    expect(
      (await fetch(`http://127.0.0.1:${port}/v1/keys`, { headers: { authorization: `Bearer ${test}` } })).status,
    ).to.equal(200);
    expect(await stop(second.child)).to.equal(0);
  });
});
