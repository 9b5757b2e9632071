import { createServer, connect, type Server, type Socket } from 'node:net';

export interface CuttingProxy {
  url: string;
  /** Connections accepted so far. */
  connections: number;
  close(): Promise<void>;
}

/**
 * A TCP proxy to 127.0.0.1:`port` that ends its first connection after forwarding `cutAfter` bytes of the
 * answer, in the middle of a body: what a client sees when a download's connection breaks. Every later
 * connection is forwarded whole.
 */
export async function startCuttingProxy(port: number, cutAfter: number): Promise<CuttingProxy> {
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    // A socket of a cut exchange may see its peer's reset: the test reads the client's outcome, not this.
    socket.on('error', () => socket.destroy());
  };
  const proxy = {
    url: '',
    connections: 0,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server: Server = createServer((client) => {
    const cut = proxy.connections === 0;
    proxy.connections++;
    const upstream = connect(port, '127.0.0.1');
    track(client);
    track(upstream);
    client.pipe(upstream);
    client.on('close', () => upstream.destroy());
    let forwarded = 0;
    upstream.on('data', (chunk: Buffer) => {
      if (cut && forwarded + chunk.length >= cutAfter) {
        client.end(chunk.subarray(0, cutAfter - forwarded));
        forwarded = cutAfter;
        upstream.destroy();
        return;
      }
      forwarded += chunk.length;
      client.write(chunk);
    });
    upstream.on('end', () => client.end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the proxy has no port');
  proxy.url = `http://127.0.0.1:${address.port}`;
  return proxy;
}
