import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { childrenOf, cleanUpOnExit, freePort, run, signal } from './processes.js';

/** Debian installs each major version under /usr/lib/postgresql/<version>/bin: the newest one. */
function postgresBin(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root).filter((name) => existsSync(join(root, name, 'bin', 'initdb')))
    : [];
  if (versions.length === 0)
    throw new Error('no PostgreSQL server under /usr/lib/postgresql (apt-get install postgresql)');
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0]!;
  return join(root, newest, 'bin');
}

/**
 * A PostgreSQL cluster of the test's own: initdb in a temporary folder, on a free port of 127.0.0.1,
 * its unix socket in that folder. initdb refuses to run as root, so as root it runs as `postgres`.
 * Never the machine's service: the faults below stop, freeze and cut it.
 */
export interface PostgresCluster {
  url: string;
  port: number;
  start(): Promise<void>;
  /** `pg_ctl stop -m immediate`: every backend killed at once, as a crash or a failover does. */
  stopImmediately(): Promise<void>;
  /** SIGSTOP to the postmaster and every backend: connections stay open and nothing answers. */
  freeze(): void;
  thaw(): void;
  /** `pg_terminate_backend` of every idle connection but the caller's; how many it terminated. */
  terminateIdleConnections(): Promise<number>;
  /** Stops the cluster (whatever its state) and removes its folder. */
  destroy(): Promise<void>;
}

export async function startPostgresCluster(): Promise<PostgresCluster> {
  const bin = postgresBin();
  const folder = mkdtempSync(join(tmpdir(), 'finsynth-faults-pg-'));
  const dataDir = join(folder, 'data');
  const asRoot = userInfo().uid === 0;
  // The server's user must own its folder; as anyone else the folder is the caller's already.
  if (asRoot) {
    const { uid, gid } = postgresUser();
    chownSync(folder, uid, gid);
  }
  chmodSync(folder, 0o700);
  const as = (command: string, args: string[]) =>
    asRoot ? run('runuser', ['-u', 'postgres', '--', command, ...args]) : run(command, args);
  const port = await freePort();
  const pgCtl = join(bin, 'pg_ctl');
  let frozen = false;
  let removeExitCleanup: () => void = () => undefined;

  const postmasterPid = (): number | undefined => {
    try {
      return Number(readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    } catch {
      return undefined;
    }
  };
  const processes = (): number[] => {
    const pid = postmasterPid();
    return pid === undefined ? [] : [pid, ...childrenOf(pid)];
  };
  /** Synchronous, for the process's exit: SIGQUIT is the postmaster's immediate shutdown. */
  const killNow = () => {
    const pid = postmasterPid();
    if (pid === undefined) return;
    if (frozen) for (const each of processes()) signal(each, 'SIGCONT');
    signal(pid, 'SIGQUIT');
  };

  await as(join(bin, 'initdb'), [
    '-D',
    dataDir,
    '-U',
    'postgres',
    '--auth=trust',
    '-E',
    'UTF8',
    '--no-sync',
    '--no-instructions',
  ]);
  const settings = [
    `-p ${port}`,
    `-k ${folder}`,
    '-c listen_addresses=127.0.0.1',
    // Faster without fsync: an immediate stop kills the server's processes, not the machine, so what reached the
    // kernel survives it. Commits stay synchronous: an asynchronous commit still in the server's WAL buffers is lost
    // by an immediate stop after readers saw it, which no production setting allows (the suite's audit then found
    // a renewal in a projection's snapshot that the restarted store no longer held).
    '-c fsync=off',
    '-c full_page_writes=off',
    '-c max_connections=100',
  ].join(' ');

  const cluster: PostgresCluster = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    async start() {
      await as(pgCtl, ['-D', dataDir, '-o', settings, '-l', join(folder, 'server.log'), '-w', '-t', '60', 'start']);
      removeExitCleanup();
      removeExitCleanup = cleanUpOnExit(killNow);
    },
    async stopImmediately() {
      await as(pgCtl, ['-D', dataDir, '-m', 'immediate', '-w', 'stop']);
    },
    freeze() {
      // The postmaster first, so that it starts no new backend meanwhile; its children are listed only once it
      // is stopped, or a backend it started in between would go on answering.
      const postmaster = postmasterPid();
      if (postmaster !== undefined) signal(postmaster, 'SIGSTOP');
      for (const pid of processes().slice(1)) signal(pid, 'SIGSTOP');
      frozen = true;
    },
    thaw() {
      for (const pid of processes().reverse()) signal(pid, 'SIGCONT');
      frozen = false;
    },
    async terminateIdleConnections() {
      const client = new pg.Client({ connectionString: cluster.url });
      await client.connect();
      try {
        const result = await client.query(
          `SELECT count(*) FILTER (WHERE pg_terminate_backend(pid)) AS terminated FROM pg_stat_activity
           WHERE pid <> pg_backend_pid() AND backend_type = 'client backend' AND state = 'idle'`,
        );
        return Number(result.rows[0].terminated);
      } finally {
        await client.end();
      }
    },
    async destroy() {
      if (frozen) cluster.thaw();
      if (postmasterPid() !== undefined) await cluster.stopImmediately().catch(() => killNow());
      removeExitCleanup();
      rmSync(folder, { recursive: true, force: true });
    },
  };
  try {
    await cluster.start();
  } catch (error) {
    rmSync(folder, { recursive: true, force: true });
    throw error;
  }
  return cluster;
}

function postgresUser(): { uid: number; gid: number } {
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith('postgres:'));
  if (!line)
    throw new Error('running as root needs the postgres user (apt-get install postgresql creates it) to run initdb');
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}
