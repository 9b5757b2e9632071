import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../..');
const CLI = join(REPO_ROOT, 'bin/finsynth.js');
/** The example pack of the pack author guide, loaded as a third-party pack. */
export const EXAMPLE_PACK = join(REPO_ROOT, 'docs/examples/loyalty');

/** How long a started server may take to print its port, and a stopped one to exit, before the suite gives up. */
const START_LIMIT_MS = 120_000;
const STOP_LIMIT_MS = 30_000;
const KEPT_LINES = 200;

export interface ServerProcess {
  url: string;
  port: number;
  pid: number;
  dataDir: string;
  /** The first-start keys of `acc_local`, read from the server's stdout. */
  keys: { live: string; test: string };
  /** True while the process has neither exited nor been killed. */
  alive(): boolean;
  /** How it ended, once it has. */
  exit(): { code: number | null; signal: NodeJS.Signals | null } | null;
  /** Log lines at level error or above (pino 50+), and the last lines of output, for failure messages. */
  errorLines(): string[];
  lastLines(): string;
  /** Resident set size from /proc (Linux), in bytes. */
  rssBytes(): Promise<number>;
  /** SIGTERM, then waits for the exit (SIGKILL past the limit): its exit code. */
  stop(): Promise<number | null>;
  /** Runs a CLI command of the same build on the same data directory: its exit code and output. */
  cli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }>;
  /** Stops the process if it still runs and removes the data directory. */
  cleanup(): Promise<void>;
}

/**
 * The child's environment: the caller's, without any FINSYNTH_ setting (CI exports the shared
 * PostgreSQL and Redis URLs, which a suite's server must not write to), plus the suite's own.
 */
function childEnv(own: Record<string, string>): NodeJS.ProcessEnv {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith('FINSYNTH_') && name !== 'PORT'),
  );
  return { ...env, FINSYNTH_LOG_LEVEL: 'info', ...own };
}

async function runCli(
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [CLI, ...args], { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const [code] = (await once(child, 'close')) as [number | null];
  return { code, stdout, stderr };
}

/**
 * `finsynth serve` as `npm start` runs it, in a child process on a free port with a fresh data
 * directory: a crash of the server is then seen as the exit of its process, not as a test's error.
 */
export async function startServerProcess(options: { env?: Record<string, string> } = {}): Promise<ServerProcess> {
  const dataDir = await mkdtemp(join(tmpdir(), 'finsynth-outside-in-'));
  const env = childEnv(options.env ?? {});
  const child: ChildProcess = spawn(process.execPath, [CLI, 'serve', '--port', '0', '--data', dataDir], {
    cwd: REPO_ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const errors: string[] = [];
  const keep = (line: string) => {
    lines.push(line);
    if (lines.length > KEPT_LINES) lines.shift();
    if (/^\{.*"level":(5|6)\d/.test(line)) errors.push(line);
  };
  let exited: { code: number | null; signal: NodeJS.Signals | null } | null = null;
  const ended = new Promise<void>((resolveEnded) => {
    child.once('exit', (code, signal) => {
      exited = { code, signal };
      resolveEnded();
    });
  });
  const keys: { live?: string; test?: string } = {};
  const serving = new Promise<number>((resolvePort, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      keep(line);
      const key = /^\s+(live|test) key: (\S+)$/.exec(line);
      if (key) keys[key[1] as 'live' | 'test'] = key[2];
      if (line.includes('"finsynth is serving"')) resolvePort((JSON.parse(line) as { port: number }).port);
    });
    createInterface({ input: child.stderr! }).on('line', keep);
    void ended.then(() =>
      reject(new Error(`the server exited before serving (${JSON.stringify(exited)}):\n${lines.join('\n')}`)),
    );
  });
  let startTimer: NodeJS.Timeout | undefined;
  const tooSlow = new Promise<never>((_, reject) => {
    startTimer = setTimeout(
      () => reject(new Error(`the server did not serve within ${START_LIMIT_MS} ms:\n${lines.join('\n')}`)),
      START_LIMIT_MS,
    );
  });
  let port: number;
  try {
    port = await Promise.race([serving, tooSlow]);
  } catch (error) {
    child.kill('SIGKILL');
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  } finally {
    clearTimeout(startTimer);
  }
  if (!keys.live || !keys.test) throw new Error(`the server printed no first-start keys:\n${lines.join('\n')}`);

  const stop = async (): Promise<number | null> => {
    if (exited) return exited.code;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_LIMIT_MS);
    await ended;
    clearTimeout(timer);
    return exited!.code;
  };
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    pid: child.pid!,
    dataDir,
    keys: { live: keys.live, test: keys.test },
    alive: () => exited === null,
    exit: () => exited,
    errorLines: () => [...errors],
    lastLines: () => lines.join('\n'),
    async rssBytes() {
      const status = await readFile(`/proc/${child.pid}/status`, 'utf8');
      const kib = /^VmRSS:\s+(\d+) kB$/m.exec(status);
      if (!kib) throw new Error(`no VmRSS in /proc/${child.pid}/status`);
      return Number(kib[1]) * 1024;
    },
    stop,
    cli: (args) => runCli([...args, '--data', dataDir], env),
    async cleanup() {
      await stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
