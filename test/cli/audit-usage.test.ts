import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { finsynth, killAll } from './support/finsynth.js';

/** Each audit command with the usage line its help starts with. */
const COMMANDS: [string[], string][] = [
  [['audit'], 'usage: finsynth audit [--account ID] [--data DIR] [--json]\n'],
  [['audit', 'verify'], 'usage: finsynth audit verify BUNDLE --public-key KEY [--checkpoint SAVED] [--url URL]'],
  [['audit', 'witness'], 'usage: finsynth audit witness --url URL --state DIR [--public-key KEY] [--key API_KEY]\n'],
  [['audit', 'rebuild-log'], 'usage: finsynth audit rebuild-log [--check] [--force] [--data DIR] [--json]\n'],
];

describe('finsynth audit and its subcommands: usage', function () {
  this.timeout(60_000);
  let dir: string;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'finsynth-audit-usage-'));
  });

  after(async () => {
    killAll();
    await rm(dir, { recursive: true, force: true });
  });

  it('answers --help and -h with the usage on stdout and exit code 0', async () => {
    for (const [command, usage] of COMMANDS)
      for (const flag of ['--help', '-h']) {
        const { code, stdout, stderr } = await finsynth([...command, flag]);
        expect(code, `${command.join(' ')} ${flag}`).to.equal(0);
        expect(stdout.startsWith(usage), stdout).to.equal(true);
        expect(stdout).to.match(/\n {2}-h, --help +print this help\n/);
        expect(stderr).to.equal('');
      }
    const audit = await finsynth(['audit', '--help']);
    for (const subcommand of ['verify', 'witness', 'rebuild-log'])
      expect(audit.stdout).to.match(new RegExp(`\\n {2}${subcommand} `));
  });

  it('exits 2 on a bad option, with the usage on stderr and nothing on stdout', async () => {
    for (const [command, usage] of COMMANDS) {
      const { code, stdout, stderr } = await finsynth([...command, '--colour']);
      expect(code, command.join(' ')).to.equal(2);
      expect(stdout).to.equal('');
      // Witness names its missing mandatory options first; the others the unknown one.
      expect(stderr.startsWith(usage), stderr).to.equal(true);
      expect(stderr).to.match(command[1] === 'witness' ? /required option '--url/ : /unknown option '--colour'/);
    }
  });

  it('exits 2 on other bad usage: --check with --force, an extra argument, the replay options before a subcommand', async () => {
    const data = join(dir, 'data');
    for (const args of [
      ['audit', 'rebuild-log', '--check', '--force', '--data', data],
      ['audit', 'rebuild-log', 'extra', '--data', data],
      ['audit', 'extra', '--data', data],
      ['audit', 'verify', 'bundle', 'extra'],
      ['audit', 'witness', '--url', 'http://127.0.0.1:9', '--state', dir, 'extra'],
      ['audit', '--data', data, 'rebuild-log', '--check'],
    ]) {
      const { code, stdout, stderr } = await finsynth(args);
      expect(code, args.join(' ')).to.equal(2);
      expect(stdout).to.equal('');
      expect(stderr).to.match(/^usage: finsynth audit/);
    }
  });

  it('runs the replay with no subcommand, and rebuild-log with its own --data', async () => {
    const data = join(dir, 'data');
    const replay = await finsynth(['audit', '--json', '--data', data]);
    expect(replay.code, replay.stderr).to.equal(0);
    expect(JSON.parse(replay.stdout)).to.include({ holds: true, events: 0 });
    const missing = await finsynth(['audit', '--account', 'acc_nobody', '--data', data]);
    expect(missing.code).to.equal(1);
    expect(missing.stderr).to.include('the store has no account "acc_nobody"');
    const rebuilt = await finsynth(['audit', 'rebuild-log', '--check', '--json', '--data', data]);
    expect(rebuilt.code, rebuilt.stderr).to.equal(0);
    expect(JSON.parse(rebuilt.stdout)).to.include({ matches: true, size: 0 });
  });
});
