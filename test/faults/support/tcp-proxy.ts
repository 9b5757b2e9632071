import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy on 127.0.0.1 in front of a server, to make it fail as a network or a host does: `refuse`
 * (nothing listens: the server is down), `cut` (every connection reset), `freeze` (connections stay
 * open and nothing passes either way: the server hangs), and back again.
 */
export interface TcpProxy {
  port: number;
  cut(): void;
  refuse(): Promise<void>;
  accept(): Promise<void>;
  freeze(): void;
  thaw(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  const pairs = new Set<[Socket, Socket]>();
  let frozen = false;
  let server: Server | undefined;
  let port = 0;

  const open = async () => {
    const listening = createServer((client) => {
      const upstream = connect(targetPort, targetHost);
      const pair: [Socket, Socket] = [client, upstream];
      pairs.add(pair);
      const end = () => {
        pairs.delete(pair);
        client.destroy();
        upstream.destroy();
      };
      for (const socket of pair) {
        socket.on('error', end);
        socket.on('close', end);
      }
      client.pipe(upstream);
      upstream.pipe(client);
      // After pipe(), which starts the flow.
      if (frozen) for (const socket of pair) socket.pause();
    });
    await new Promise<void>((resolve) => listening.listen(port, '127.0.0.1', resolve));
    const address = listening.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    port = address.port;
    server = listening;
  };
  const cut = () => {
    for (const [client, upstream] of pairs) {
      client.destroy();
      upstream.destroy();
    }
    pairs.clear();
  };
  await open();
  return {
    get port() {
      return port;
    },
    cut,
    async refuse() {
      const closing = server;
      server = undefined;
      cut();
      if (closing) await new Promise((resolve) => closing.close(resolve));
    },
    async accept() {
      if (!server) await open();
    },
    freeze() {
      frozen = true;
      for (const pair of pairs) for (const socket of pair) socket.pause();
    },
    thaw() {
      frozen = false;
      for (const pair of pairs) for (const socket of pair) socket.resume();
    },
    async close() {
      frozen = false;
      const closing = server;
      server = undefined;
      cut();
      if (closing) await new Promise((resolve) => closing.close(resolve));
    },
  };
}
