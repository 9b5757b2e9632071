import { expect } from 'chai';
import { connect, type Socket } from 'node:net';
import { openAccount, startTestApp, type TestAccount, type TestApp } from '../support/app.js';

const ERRORS = 'https://errors.finsynth.dev';

/** Reads one HTTP/1.1 response with a Content-Length from `socket`, leaving the connection as it is. */
function readResponse(socket: Socket): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  return new Promise((resolve, reject) => {
    let received = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const end = received.indexOf('\r\n\r\n');
      if (end === -1) return;
      const [statusLine = '', ...lines] = received.subarray(0, end).toString('latin1').split('\r\n');
      const headers = Object.fromEntries(
        lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
      );
      const length = Number(headers['content-length'] ?? 0);
      if (received.length < end + 4 + length) return;
      cleanUp();
      resolve({
        status: Number(statusLine.split(' ')[1]),
        headers,
        body: received.subarray(end + 4, end + 4 + length).toString('utf8'),
      });
    };
    const onEnd = () => {
      cleanUp();
      reject(new Error(`the connection ended after ${received.length} bytes of an answer`));
    };
    const onError = (error: Error) => {
      cleanUp();
      reject(error);
    };
    const cleanUp = () => {
      socket.off('data', onData);
      socket.off('end', onEnd);
      socket.off('error', onError);
    };
    socket.on('data', onData);
    socket.on('end', onEnd);
    socket.on('error', onError);
  });
}

/** Resolves when the server has closed the connection (FIN), or rejects if it reset it. */
function closedByServer(socket: Socket): Promise<void> {
  return new Promise((resolve, reject) => {
    socket.once('error', reject);
    socket.once('end', () => resolve());
    socket.resume();
  });
}

async function open(app: TestApp): Promise<Socket> {
  const socket = connect(app.server.port, '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  return socket;
}

describe('HTTP edge cases over real sockets', () => {
  describe('draining', () => {
    let app: TestApp;
    let account: TestAccount;

    beforeEach(async () => {
      app = await startTestApp();
      account = await openAccount(app);
    });
    afterEach(() => app.close());

    it('answers, with Connection: close, a request that reached a kept-alive connection as the drain began', async () => {
      const socket = await open(app);
      const get = `GET /v1/keys HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${account.test}\r\n\r\n`;
      socket.write(get);
      const first = await readResponse(socket);
      expect(first.status).to.equal(200);
      expect(first.headers.connection).to.equal('keep-alive');
      // The second request is in the server's socket, not yet read, when the drain begins.
      socket.write(get);
      const drained = app.server.close(5_000);
      const second = await readResponse(socket);
      expect(second.status).to.equal(200);
      expect(second.headers.connection).to.equal('close');
      await closedByServer(socket);
      await drained;
    });

    it('closes an idle kept-alive connection without resetting it, and lets an open request finish', async () => {
      const idle = await open(app);
      idle.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
      expect((await readResponse(idle)).status).to.equal(200);
      const busy = await open(app);
      // Headers without their body: the request is open until the body comes.
      const body = JSON.stringify({ name: 'drained' });
      busy.write(
        `POST /v1/keys HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${account.test}\r\n` +
          `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
      );
      await new Promise((resolve) => setTimeout(resolve, 50));
      const drained = app.server.close(5_000);
      await closedByServer(idle);
      busy.write(body);
      const answer = await readResponse(busy);
      expect(answer.status).to.equal(201);
      expect(answer.headers.connection).to.equal('close');
      await drained;
    });
  });

  describe('chunked bodies, with FINSYNTH_READ_CHUNK_SIZES', () => {
    let app: TestApp;
    let account: TestAccount;

    before(async () => {
      app = await startTestApp({ config: { readChunkSizes: true } });
      account = await openAccount(app);
    });
    after(() => app.close());

    const head = (path: string) =>
      `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${account.test}\r\n` +
      `Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`;
    const chunk = (text: string) => `${Buffer.byteLength(text).toString(16)}\r\n${text}\r\n`;

    it('refuses with 413 a body that announces a chunk over the limit as soon as the size is read, before its bytes come', async () => {
      const socket = await open(app);
      // A gigabyte announced, ten bytes sent, and the request left open.
      socket.write(`${head('/v1/generate/quick')}40000000\r\n{"sector":`);
      const answer = await readResponse(socket);
      expect(answer.status).to.equal(413);
      expect(JSON.parse(answer.body)).to.include({ type: `${ERRORS}/payload-too-large`, limit_bytes: 1024 * 1024 });
      expect(answer.headers.connection).to.equal('close');
      socket.destroy();
    });

    it('refuses with 413 at the chunk whose size brings the announced total over the limit', async () => {
      const socket = await open(app);
      socket.write(`${head('/v1/generate/quick')}${chunk('{"sector": "cards", ')}80000\r\n`);
      // 512 KiB announced: within the limit, so the request waits for its bytes.
      socket.write(`${' '.repeat(0x80000)}\r\n`);
      socket.write('80001\r\n');
      const answer = await readResponse(socket);
      expect(answer.status).to.equal(413);
      socket.destroy();
    });

    it('reads chunked bodies within the limit, also after a request with a Content-Length on the same connection', async () => {
      const socket = await open(app);
      const first = JSON.stringify({ name: 'first' });
      socket.write(
        `POST /v1/keys HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${account.test}\r\n` +
          `Content-Type: application/json\r\nContent-Length: ${first.length}\r\n\r\n${first}`,
      );
      expect((await readResponse(socket)).status).to.equal(201);
      // A chunk extension, and a trailer field.
      socket.write(
        `${head('/v1/keys')}9;ext=1\r\n{"name": \r\n${chunk('"second"')}${chunk('}')}0\r\nX-Trailer: 1\r\n\r\n`,
      );
      const second = await readResponse(socket);
      expect(second.status, second.body).to.equal(201);
      expect(JSON.parse(second.body).name).to.equal('second');
      socket.destroy();
    });

    it('reads a body of many one-byte chunks, and lines split over packets', async () => {
      const socket = await open(app);
      socket.setNoDelay(true);
      const name = 'n'.repeat(100);
      const chunks = [...JSON.stringify({ name })].map((char) => `001;x=y\r\n${char}\r\n`).join('');
      // The head and the first chunks a byte at a time, the rest at once.
      const text = `${head('/v1/keys')}${chunks}0\r\n\r\n`;
      for (const byte of text.slice(0, 400)) {
        socket.write(byte);
        await new Promise((resolve) => setImmediate(resolve));
      }
      socket.write(text.slice(400));
      const answer = await readResponse(socket);
      expect(answer.status, answer.body).to.equal(201);
      expect(JSON.parse(answer.body).name).to.equal(name);
      socket.destroy();
    });
  });

  describe('requests Node would refuse or drop by itself', () => {
    let app: TestApp;

    before(async () => {
      app = await startTestApp();
    });
    after(() => app.close());

    it('answers CONNECT with 405 method-not-allowed and the methods served, then closes the connection', async () => {
      const socket = await open(app);
      socket.write('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
      const answer = await readResponse(socket);
      expect(answer.status).to.equal(405);
      expect(answer.headers['content-type']).to.equal('application/problem+json');
      expect(answer.headers.allow).to.equal('GET, HEAD, POST, PUT, DELETE');
      expect(JSON.parse(answer.body)).to.include({ type: `${ERRORS}/method-not-allowed`, status: 405 });
      await closedByServer(socket);
    });

    it('goes on serving after a CONNECT client resets its connection', async () => {
      const socket = await open(app);
      socket.write('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\nbytes of a tunnel');
      socket.resetAndDestroy();
      const next = await open(app);
      next.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
      expect((await readResponse(next)).status).to.equal(200);
      next.destroy();
    });

    it('answers a request with two Host lines with 400 malformed-request', async () => {
      for (const hosts of ['Host: a.example\r\nHost: b.example', 'Host: a.example\r\nhost: a.example']) {
        const socket = await open(app);
        socket.write(`GET /healthz HTTP/1.1\r\n${hosts}\r\n\r\n`);
        const answer = await readResponse(socket);
        expect(answer.status, hosts).to.equal(400);
        expect(JSON.parse(answer.body)).to.include({
          type: `${ERRORS}/malformed-request`,
          detail: 'a request has one Host header, not several',
        });
        expect(answer.headers.connection).to.equal('close');
        socket.destroy();
      }
    });
  });
});
