import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const bin = fileURLToPath(new URL('../../../bin/finsynth.js', import.meta.url));

/** The embedded store and no third-party packs, whatever the environment of the test run says. */
export const cliEnv = {
  ...process.env,
  FINSYNTH_POSTGRES_URL: '',
  FINSYNTH_KURRENTDB_URL: '',
  FINSYNTH_REDIS_URL: '',
  FINSYNTH_PACKS: '',
  FINSYNTH_POOL_SIZE: '2',
  FINSYNTH_LOG_LEVEL: 'warn',
};

export interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Children still running when a test ends are killed by `killAll`, never left behind. */
const running = new Set<ChildProcessWithoutNullStreams>();

export interface StartOptions {
  cwd?: string;
  /** What runs finsynth: bin/finsynth.js by default, or an installed bin. */
  command?: string[];
  /** Added to the environment (cliEnv). */
  env?: Record<string, string>;
}

/** `finsynth <args>` as a child process, as a user runs it: bin/finsynth.js, or `command` (an installed bin). */
export function start(
  args: string[],
  { cwd, command = [process.execPath, bin], env }: StartOptions = {},
): ChildProcessWithoutNullStreams {
  const [executable, ...before] = command;
  const child = spawn(executable, [...before, ...args], { cwd, env: { ...cliEnv, ...env } });
  running.add(child);
  child.on('close', () => running.delete(child));
  return child;
}

export async function finsynth(args: string[], options: StartOptions = {}): Promise<Ran> {
  return output(start(args, options));
}

/** What a child printed, once it has ended. */
export async function output(child: ChildProcessWithoutNullStreams): Promise<Ran> {
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return { code, stdout, stderr };
}

export function killAll(): void {
  for (const child of running) child.kill('SIGKILL');
}
