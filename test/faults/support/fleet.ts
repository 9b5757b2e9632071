import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream, mkdirSync, mkdtempSync, rmSync, type WriteStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { call } from './http-client.js';
import { cleanUpOnExit, delay, freePort, run } from './processes.js';

const entry = fileURLToPath(new URL('../../../bin/finsynth.js', import.meta.url));

/** One instance of the service: `finsynth serve` in a child process, as an operator runs it. */
export interface Instance {
  name: string;
  url: string;
  /** Its process id while it runs. */
  pid(): number | undefined;
  /** Every exit of its process, expected (the test killed it) or not. */
  readonly exits: { code: number | null; signal: NodeJS.Signals | null; expected: boolean }[];
  /** What it printed on stdout (the first start's keys, its JSON logs). */
  output(): string;
  start(): Promise<void>;
  /** Kills it as a machine dies (an expected exit). */
  kill(signal: NodeJS.Signals): Promise<void>;
}

export interface Fleet {
  instances: Instance[];
  /** The folder of the shared results, and of each instance's data. */
  folder: string;
  env: Record<string, string>;
  /** Runs a `finsynth` command (accounts, audit) against the fleet's store: its exit code and stdout. */
  cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }>;
  /** Kills every instance and removes the folder. */
  destroy(): Promise<void>;
}

/**
 * `count` instances sharing the store, Redis and one results folder (FINSYNTH_RESULTS_DIR), each with
 * its own data folder and port. Their logs are in <folder>/<name>.log while the fleet lives.
 */
export async function startFleet(count: number, env: Record<string, string>): Promise<Fleet> {
  const folder = mkdtempSync(join(tmpdir(), 'finsynth-faults-fleet-'));
  const results = join(folder, 'results');
  mkdirSync(results);
  const fleetEnv = { ...env, FINSYNTH_RESULTS_DIR: results, FINSYNTH_KURRENTDB_URL: '' };
  const instances: Instance[] = [];
  for (let n = 0; n < count; n++) instances.push(await instance(`instance-${n + 1}`, folder, fleetEnv));
  // One after the other: the first opens the local account on the empty store, and on two cores they start
  // faster apart.
  try {
    for (const each of instances) await each.start();
  } catch (error) {
    for (const each of instances) await each.kill('SIGKILL');
    rmSync(folder, { recursive: true, force: true });
    throw error;
  }
  return {
    instances,
    folder,
    env: fleetEnv,
    async cli(args) {
      try {
        const { stdout, stderr } = await run(process.execPath, [entry, ...args, '--data', join(folder, 'cli')], {
          env: { ...process.env, ...fleetEnv, FINSYNTH_LOG_LEVEL: 'silent' },
          maxBuffer: 64 * 1024 * 1024,
        });
        return { code: 0, stdout, stderr };
      } catch (error) {
        const failed = error as { code?: number; stdout?: string; stderr?: string };
        return {
          code: typeof failed.code === 'number' ? failed.code : 1,
          stdout: failed.stdout ?? '',
          stderr: failed.stderr ?? String(error),
        };
      }
    },
    async destroy() {
      for (const each of instances) await each.kill('SIGKILL');
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

async function instance(name: string, folder: string, env: Record<string, string>): Promise<Instance> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const exits: Instance['exits'] = [];
  let child: ChildProcess | undefined;
  let killing = false;
  let stdout = '';
  let log: WriteStream | undefined;
  let removeExitCleanup: () => void = () => undefined;
  return {
    name,
    url,
    exits,
    pid: () => (child && child.exitCode === null && child.signalCode === null ? child.pid : undefined),
    output: () => stdout,
    async start() {
      log ??= createWriteStream(join(folder, `${name}.log`), { flags: 'a' });
      const started = spawn(process.execPath, [entry, 'serve', '--port', String(port), '--data', join(folder, name)], {
        env: { ...process.env, ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child = started;
      killing = false;
      removeExitCleanup = cleanUpOnExit(() => started.kill('SIGKILL'));
      started.stdout!.on('data', (data: Buffer) => {
        stdout += data.toString();
        log!.write(data);
      });
      started.stderr!.on('data', (data: Buffer) => log!.write(data));
      started.once('exit', (code, signal) => exits.push({ code, signal, expected: killing }));
      const deadline = Date.now() + 120_000;
      for (;;) {
        if (started.exitCode !== null || started.signalCode !== null)
          throw new Error(`${name} exited while starting: ${stdout.slice(-2000)}`);
        const ready = await call(url, 'GET', '/readyz', { timeoutMs: 5000 });
        if (ready.kind === 'answer' && ready.status === 200) return;
        if (Date.now() > deadline) throw new Error(`${name} was not ready within 120 s`);
        await delay(200);
      }
    },
    async kill(signal) {
      const running = child;
      if (!running || running.exitCode !== null || running.signalCode !== null) return;
      killing = true;
      running.kill(signal);
      await once(running, 'exit');
      removeExitCleanup();
    },
  };
}
