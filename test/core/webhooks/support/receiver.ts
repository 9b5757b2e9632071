import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: IncomingHttpHeaders;
  /** The raw body, as the signature covers it. */
  body: string;
}

/** How the receiver answers its n-th request (from 0): a status (and headers), or `hang` to never answer. */
export type Answer = { status: number; headers?: Record<string, string> } | 'hang';

/**
 * A webhook receiver on 127.0.0.1, started by a test: it keeps what it is sent and answers as told.
 * `next(count)` resolves once it has been sent that many requests (the test's own timeout bounds it).
 */
export class Receiver {
  readonly received: Received[] = [];
  private readonly waiting: { count: number; resolve: () => void }[] = [];
  private readonly hanging: ServerResponse[] = [];

  private readonly server: Server;

  private constructor(
    private readonly answer: (index: number) => Answer,
    private readonly path: string,
  ) {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => this.receive(request.headers, Buffer.concat(chunks).toString('utf8'), response));
    });
  }

  static async start(answer: (index: number) => Answer = () => ({ status: 200 }), path = '/hooks'): Promise<Receiver> {
    const receiver = new Receiver(answer, path);
    await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}${this.path}`;
  }

  /** Resolves once `count` requests have arrived in all. */
  next(count = this.received.length + 1): Promise<void> {
    if (this.received.length >= count) return Promise.resolve();
    return new Promise((resolve) => this.waiting.push({ count, resolve }));
  }

  /** The bodies received, parsed. */
  events(): {
    id: string;
    type: string;
    created: number;
    livemode: boolean;
    data: { object: Record<string, unknown> };
  }[] {
    return this.received.map((received) => JSON.parse(received.body));
  }

  async close(): Promise<void> {
    for (const response of this.hanging) response.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private receive(headers: IncomingHttpHeaders, body: string, response: ServerResponse): void {
    const index = this.received.length;
    this.received.push({ headers, body });
    const reply = this.answer(index);
    if (reply === 'hang') this.hanging.push(response);
    else response.writeHead(reply.status, reply.headers).end('ok');
    for (const waiter of this.waiting.filter((waiter) => this.received.length >= waiter.count)) {
      this.waiting.splice(this.waiting.indexOf(waiter), 1);
      waiter.resolve();
    }
  }
}
