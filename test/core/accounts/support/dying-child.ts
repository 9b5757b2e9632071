import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { TestAccount } from '../../../support/app.js';

/** The credit command at whose call the child exits (dying-service.ts). */
export type DyingPoint = 'refund' | 'release';
/** The child's exit code when it died at its point: any other code is a failure of its own. */
export const DIED = 86;

const entry = fileURLToPath(new URL('./dying-service.ts', import.meta.url));

export interface ChildApp {
  url: string;
  /** The account opened at start, when asked for. */
  account: TestAccount | null;
  /** Resolves with the exit code once the process has ended. */
  exited: Promise<number | null>;
  /** SIGTERM (a graceful stop), then waits for the end. */
  stop(): Promise<void>;
}

/** Starts dying-service.ts on `dataDir`; resolves once it serves. */
export async function startChildApp(
  dataDir: string,
  options: { diesAt?: DyingPoint; openAccount?: number } = {},
): Promise<ChildApp> {
  const env = {
    ...process.env,
    DATA_DIR: dataDir,
    DIES_AT: options.diesAt ?? '',
    OPEN_ACCOUNT: options.openAccount?.toString() ?? '',
  };
  const child = spawn(process.execPath, ['--import', 'tsx', entry], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (data: Buffer) => (stderr += data.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const started = await Promise.race([
    new Promise<string>((resolve) =>
      child.stdout.on('data', (data: Buffer) => {
        stdout += data.toString();
        if (stdout.includes('\n')) resolve(stdout.slice(0, stdout.indexOf('\n')));
      }),
    ),
    exited.then((code) => {
      throw new Error(`the child exited with ${code} before serving: ${stdout}${stderr}`);
    }),
  ]);
  const { url, account } = JSON.parse(started) as { url: string; account: TestAccount | null };
  return {
    url,
    account,
    exited,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
