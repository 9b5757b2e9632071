import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { connect } from 'node:net';
import { cleanUpOnExit, delay, freePort } from './processes.js';

/**
 * A redis-server of the test's own on a free port of 127.0.0.1, nothing kept on disk; stopped and started
 * again on that port.
 */
export interface RedisServer {
  url: string;
  start(): Promise<void>;
  /** SIGKILL: an outage, not a shutdown. */
  stop(): Promise<void>;
}

export async function startRedisServer(): Promise<RedisServer> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  let removeExitCleanup: () => void = () => undefined;
  const server: RedisServer = {
    url: `redis://127.0.0.1:${port}`,
    async start() {
      const started = spawn(
        'redis-server',
        ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--protected-mode', 'no'],
        {
          stdio: 'ignore',
        },
      );
      child = started;
      removeExitCleanup = cleanUpOnExit(() => started.kill('SIGKILL'));
      for (let attempt = 0; !(await answers(port)); attempt++) {
        if (started.exitCode !== null || attempt >= 100) throw new Error(`redis-server did not start on port ${port}`);
        await delay(50);
      }
    },
    async stop() {
      const running = child;
      child = undefined;
      if (!running || running.exitCode !== null || running.signalCode !== null) return;
      running.kill('SIGKILL');
      await once(running, 'exit');
      removeExitCleanup();
    },
  };
  await server.start();
  return server;
}

/** Whether a PING on the port gets its PONG. */
function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.setTimeout(1000, () => socket.destroy());
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => {
      socket.destroy();
      resolve(data.toString().startsWith('+PONG'));
    });
    socket.once('error', () => resolve(false));
    socket.once('close', () => resolve(false));
  });
}
