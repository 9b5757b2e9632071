import { expect } from 'chai';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { send } from '../../../core/webhooks/send.js';
import { UrlGuard, type Resolve } from '../../../core/webhooks/url-guard.js';

async function serve(handle: (request: IncomingMessage, response: ServerResponse) => void): Promise<Server> {
  const server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}
const portOf = (server: Server) => (server.address() as AddressInfo).port;
const close = (server: Server) => {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(resolve));
};
const options = (signal = new AbortController().signal) => ({ maxResponseBytes: 1024, signal });

describe('sending a webhook', () => {
  const servers: Server[] = [];
  const started = async (handle: Parameters<typeof serve>[0]) => {
    const server = await serve(handle);
    servers.push(server);
    return server;
  };
  afterEach(async () => {
    await Promise.all(servers.splice(0).map(close));
  });

  it('connects to the address that was checked, not to what the name resolves to later (DNS rebinding)', async () => {
    const seen: { host?: string; body: string }[] = [];
    const server = await started((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        seen.push({ host: request.headers.host, body });
        response.writeHead(200).end();
      });
    });
    let lookups = 0;
    // Resolves to the receiver once, to a refused address afterwards: the answer an attacker's DNS would change.
    const rebinding: Resolve = async () => {
      lookups += 1;
      return [{ address: lookups === 1 ? '127.0.0.1' : '169.254.169.254', family: 4 }];
    };
    const guard = new UrlGuard({ allowPrivateNetworks: true, resolve: rebinding });
    const target = await guard.check(`http://receiver.test:${portOf(server)}/in`);
    const outcome = await send(target, '{"a":1}', { 'Finsynth-Event-Id': 'evt_1' }, options());
    expect(outcome).to.deep.equal({ statusCode: 200, error: null });
    expect(seen).to.deep.equal([{ host: `receiver.test:${portOf(server)}`, body: '{"a":1}' }]);
    expect(lookups).to.equal(1);
    // Checked again before the next attempt, the name's new address is refused.
    const refused = await guard.check(`http://receiver.test:${portOf(server)}/in`).catch((error: Error) => error);
    expect(refused).to.be.instanceOf(Error);
    expect((refused as Error).message).to.contain('169.254.169.254 is a cloud metadata address');
  });

  it('follows no redirect: the 3xx is the outcome, and its Location is sent nothing', async () => {
    let followed = 0;
    const elsewhere = await started((_request, response) => {
      followed += 1;
      response.end();
    });
    const redirecting = await started((_request, response) =>
      response.writeHead(307, { location: `http://127.0.0.1:${portOf(elsewhere)}/` }).end(),
    );
    const target = await new UrlGuard({ allowPrivateNetworks: true }).check(`http://127.0.0.1:${portOf(redirecting)}/`);
    expect(await send(target, '{}', {}, options())).to.deep.equal({ statusCode: 307, error: null });
    expect(followed).to.equal(0);
  });

  it('reads no more of an answer than the limit, and drops the connection', async () => {
    let finished: Promise<boolean> | undefined;
    const server = await started((_request, response) => {
      finished = new Promise((resolve) => response.on('close', () => resolve(response.writableFinished)));
      response.writeHead(200);
      const chunk = Buffer.alloc(64 * 1024, 'x');
      const write = (left: number): void => {
        if (left === 0) return void response.end();
        if (response.write(chunk)) write(left - 1);
        else response.once('drain', () => write(left - 1));
      };
      write(1024);
    });
    const target = await new UrlGuard({ allowPrivateNetworks: true }).check(`http://127.0.0.1:${portOf(server)}/`);
    expect(await send(target, '{}', {}, options())).to.deep.equal({ statusCode: 200, error: null });
    // The 64 MiB answer was not read to its end: the connection was dropped under the server.
    expect(await finished).to.equal(false);
  });

  it("ends at the caller's deadline when nothing answers, and reports a connection refused", async () => {
    const hanging = await started(() => {});
    const guard = new UrlGuard({ allowPrivateNetworks: true });
    const deadline = new AbortController();
    const sending = send(await guard.check(`http://127.0.0.1:${portOf(hanging)}/`), '{}', {}, options(deadline.signal));
    deadline.abort(new Error('no answer within 50 ms'));
    expect(await sending).to.deep.equal({ statusCode: null, error: 'no answer within 50 ms' });

    const closed = await serve(() => {});
    const port = portOf(closed);
    await close(closed);
    const refused = await send(await guard.check(`http://127.0.0.1:${port}/`), '{}', {}, options());
    expect(refused.statusCode).to.equal(null);
    expect(refused.error).to.match(/^ECONNREFUSED/);
  });
});
