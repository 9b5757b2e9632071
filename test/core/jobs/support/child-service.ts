import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../../support/ports.js';

const entry = fileURLToPath(new URL('../../../../bin/finsynth.js', import.meta.url));

/** The real service (`finsynth serve`) in a child process: what an operator runs, killed as a machine dies. */
export interface ChildService {
  url: string;
  process: ChildProcess;
  /** Everything the child printed on stdout so far. */
  output(): string;
  kill(signal: NodeJS.Signals): Promise<void>;
}

export async function startChildService(dataDir: string, env: Record<string, string> = {}): Promise<ChildService> {
  const port = await freePort();
  const child = spawn(process.execPath, [entry, 'serve', '--port', String(port), '--data', dataDir], {
    env: {
      ...process.env,
      FINSYNTH_POSTGRES_URL: '',
      FINSYNTH_KURRENTDB_URL: '',
      FINSYNTH_REDIS_URL: '',
      FINSYNTH_LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let stdout = '';
  child.stdout!.on('data', (data: Buffer) => (stdout += data.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const kill = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  const deadline = Date.now() + 90_000;
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode}: ${stdout}`);
      const ready = await fetch(`${url}/readyz`).then(
        (response) => response.ok,
        () => false,
      );
      if (ready) break;
      if (Date.now() > deadline) throw new Error('the service did not become ready');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } catch (error) {
    // The caller never gets the child to kill, so one that did not come up is killed here.
    await kill('SIGKILL');
    throw error;
  }
  return { url, process: child, output: () => stdout, kill };
}

/** The keys `finsynth serve` prints once, on first start with an empty store. */
export function printedKeys(output: string): { live: string; test: string } {
  const live = /live key: (\S+)/.exec(output)?.[1];
  const test = /test key: (\S+)/.exec(output)?.[1];
  if (!live || !test) throw new Error(`no keys in the output: ${output}`);
  return { live, test };
}
