import { expect } from 'chai';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openCheckpoint } from '../../core/audit/log/checkpoint.js';
import { parseVerifierKey } from '../../core/audit/log/note.js';
import { freePort } from '../support/ports.js';

const bin = fileURLToPath(new URL('../../bin/finsynth.js', import.meta.url));
/** The embedded store, whatever the environment of the test run says (CI sets postgres and redis). */
const env = {
  ...process.env,
  FINSYNTH_POSTGRES_URL: '',
  FINSYNTH_KURRENTDB_URL: '',
  FINSYNTH_REDIS_URL: '',
  FINSYNTH_LOG_LEVEL: 'warn',
  FINSYNTH_KEY: '',
  FINSYNTH_AUDIT_CHECKPOINT_INTERVAL_MS: '50',
};
const running = new Set<ChildProcessWithoutNullStreams>();

function finsynth(args: string[]): ChildProcessWithoutNullStreams {
  const child = spawn(process.execPath, [bin, ...args], { env });
  running.add(child);
  child.on('close', () => running.delete(child));
  return child;
}

async function run(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = finsynth(args);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return { code, stdout, stderr };
}

describe('finsynth audit verify, witness and rebuild-log, against finsynth serve', function () {
  this.timeout(120_000);
  let dir: string;
  let server: ChildProcessWithoutNullStreams;
  let url: string;
  let printed = '';
  let liveKey: string;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'finsynth-audit-cli-'));
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    server = finsynth(['serve', '--port', String(port), '--data', join(dir, 'data')]);
    server.stdout.on('data', (chunk) => (printed += chunk));
    server.stderr.on('data', (chunk) => (printed += chunk));
    while (
      !(await fetch(`${url}/healthz`).then(
        (response) => response.ok,
        () => false,
      ))
    ) {
      if (server.exitCode !== null) throw new Error(`serve exited: ${printed}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    liveKey = /live key: (svc_live_\w+)/.exec(printed)![1];
  });
  after(async () => {
    for (const child of running) child.kill('SIGKILL');
    await rm(dir, { recursive: true, force: true });
  });

  /** A debit of the local account: a quick generation with its live key. */
  const spend = async () => {
    const response = await fetch(`${url}/v1/generate/quick`, {
      method: 'POST',
      headers: { authorization: `Bearer ${liveKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ sector: 'cards', tables: [{ name: 'cardholders', rows: 5 }] }),
    });
    expect(response.status).to.equal(200);
  };

  /** The export of the local account, once a checkpoint covers its latest event. */
  const exportBundle = async (query = '') => {
    const response = await fetch(`${url}/v1/audit/credits/export${query}`, {
      headers: { authorization: `Bearer ${liveKey}` },
    });
    expect(response.status).to.equal(200);
    return response.text();
  };

  it('prints the verifier key on the first start, beside a key file of its own (0600)', async () => {
    const served = (await (await fetch(`${url}/v1/audit/public-key`)).text()).trim();
    expect(printed).to.include(`audit log verifier key: ${served}`);
    expect((await stat(join(dir, 'data', 'audit-signing.key'))).mode & 0o777).to.equal(0o600);
    await writeFile(join(dir, 'audit.pub'), `${served}\n`);
  });

  it('verifies an exported bundle offline: exit 0; 1 with a line per failure once a byte is changed', async () => {
    await spend();
    const bundle = await exportBundle();
    await writeFile(join(dir, 'bundle.ndjson'), bundle);
    const held = await run('audit', 'verify', join(dir, 'bundle.ndjson'), '--public-key', join(dir, 'audit.pub'));
    expect(held.code, held.stdout + held.stderr).to.equal(0);
    expect(held.stdout).to.match(/^bundle of account acc_local: \d+ events against the checkpoint of /m);
    expect(held.stdout.trimEnd().split('\n').at(-1)).to.equal('the bundle holds');

    // The first debit's amount, one digit changed.
    const line = bundle.split('\n').find((each) => each.includes('"type":"CreditsDebited"'))!;
    const at = bundle.indexOf(line) + line.indexOf('"credits":') + '"credits":'.length;
    expect(bundle[at]).to.match(/\d/);
    const changed = bundle.slice(0, at) + String((Number(bundle[at]) + 1) % 10) + bundle.slice(at + 1);
    await writeFile(join(dir, 'changed.ndjson'), changed);
    const failed = await run('audit', 'verify', join(dir, 'changed.ndjson'), '--public-key', join(dir, 'audit.pub'));
    expect(failed.code).to.equal(1);
    expect(failed.stdout).to.match(/^HASH {7}line \d+ \(account-acc_local revision \d+\): its hash is not/m);
    expect(failed.stdout.trimEnd().split('\n').at(-1)).to.match(/^the bundle does NOT hold: \d+ failures?$/);

    const usage = await run('audit', 'verify', join(dir, 'bundle.ndjson'));
    expect(usage.code).to.equal(2);
    expect(usage.stderr).to.include('needs --public-key');
  });

  it('witnesses the log: keeps its checkpoint, then each one that extends it', async () => {
    const state = join(dir, 'witness');
    const key = ['--public-key', join(dir, 'audit.pub'), '--key', liveKey];
    const first = await run('audit', 'witness', '--url', url, '--state', state, ...key);
    expect(first.code, first.stderr).to.equal(0);
    expect(first.stdout).to.match(/^kept the first checkpoint: /);
    const kept = await readFile(join(state, 'checkpoint'), 'utf8');
    const verifier = parseVerifierKey(await readFile(join(dir, 'audit.pub'), 'utf8'));
    const opened = openCheckpoint(kept, verifier);
    expect(opened.verified).to.equal(true);

    await spend();
    // Until the log has signed a checkpoint past the kept one.
    let second = await run('audit', 'witness', '--url', url, '--state', state, ...key);
    while (second.stdout.startsWith('no new events')) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      second = await run('audit', 'witness', '--url', url, '--state', state, ...key);
    }
    expect(second.code, second.stderr).to.equal(0);
    expect(second.stdout).to.match(/^consistent: \d+ → .*, kept$/m);

    // A bundle checked against the checkpoint the witness kept, the proof carried in the bundle.
    const size = opened.verified ? opened.checkpoint.size : 0;
    await writeFile(join(dir, 'later.ndjson'), await exportBundle(`?consistency_from=${size}`));
    const verified = await run(
      'audit',
      'verify',
      join(dir, 'later.ndjson'),
      '--public-key',
      join(dir, 'audit.pub'),
      '--checkpoint',
      join(state, 'checkpoint'),
    );
    expect(verified.code, verified.stdout).to.equal(0);
    expect(verified.stdout).to.match(
      /^the bundle's checkpoint (is|\(\d+ events\) extends) the checkpoint you kept \(\d+ events\)$/m,
    );
  });

  it('checks the stored tree against the events (rebuild-log --check), while the server runs', async () => {
    const checked = await run('audit', 'rebuild-log', '--check', '--data', join(dir, 'data'));
    expect(checked.code, checked.stdout + checked.stderr).to.equal(0);
    expect(checked.stdout).to.include('the stored tree is the one the events give');
  });
});
