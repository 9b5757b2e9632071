import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { promisify } from 'node:util';
export { freePort } from '../../support/ports.js';

export const run = promisify(execFile);

/** The ids of the processes whose parent is `pid` (read from /proc: no tool needed). */
export function childrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // The command name (second field) is in parentheses and may hold spaces: the parent id follows its closing one.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (parent === pid) children.push(Number(entry));
    } catch {
      // The process ended while the folder was read.
    }
  }
  return children;
}

/** Sends a signal to a process that may have ended already. */
export function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // Gone already.
  }
}

export const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Cleanups that must run even when mocha's hooks do not (the runner killed by its own timeout, an
 * uncaught error): each is synchronous, so that it also runs in the process's 'exit' event.
 */
const onExit = new Set<() => void>();
let installed = false;

export function cleanUpOnExit(cleanup: () => void): () => void {
  if (!installed) {
    installed = true;
    process.on('exit', () => {
      for (const each of onExit) each();
    });
    for (const name of ['SIGINT', 'SIGTERM'] as const) {
      process.once(name, () => {
        for (const each of onExit) each();
        process.exit(130);
      });
    }
  }
  onExit.add(cleanup);
  return () => onExit.delete(cleanup);
}
