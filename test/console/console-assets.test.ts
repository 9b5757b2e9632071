import { expect } from 'chai';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { buildConsole, digestsOf, DIST } from '../../console/build.js';
import { request, startTestApp, type TestApp } from '../support/app.js';
import type { JsonBody } from '../support/json-body.js';
import { ResponseChecker } from '../support/openapi.js';

/** What the service sends, byte for byte: fetch would decode a gzipped body on the way. */
function rawGet(app: TestApp, path: string, headers: Record<string, string>) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; bytes: Buffer }>(
    (resolve, reject) => {
      get(`${app.url}${path}`, { headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode!, headers: response.headers, bytes: Buffer.concat(chunks) }),
        );
        response.on('error', reject);
      }).on('error', reject);
    },
  );
}

const policyOf = (header: string) =>
  Object.fromEntries(
    header
      .split(';')
      .map((directive) => directive.trim().split(/\s+/))
      .map(([name, ...sources]) => [name, sources]),
  );

describe('GET /console: the web console over HTTP', () => {
  let app: TestApp;
  let checker: ResponseChecker;

  before(async () => {
    app = await startTestApp();
    checker = new ResponseChecker((await request<JsonBody>(app, 'GET', '/v1/openapi.json')).body);
  });
  after(() => app.close());

  it('serves the page to anyone, with a policy of this origin only, no inline script or style, no framing', async () => {
    const response = await request(app, 'GET', '/console');
    expect(response.status).to.equal(200);
    expect(response.headers.get('content-type')).to.equal('text/html; charset=utf-8');
    checker.check('GET', '/console', response);
    expect(policyOf(response.headers.get('content-security-policy')!)).to.deep.equal({
      'default-src': ["'none'"],
      'script-src': ["'self'"],
      'style-src': ["'self'"],
      'img-src': ["'self'", 'data:'],
      'font-src': ["'self'"],
      'connect-src': ["'self'"],
      'base-uri': ["'none'"],
      'form-action': ["'none'"],
      'frame-ancestors': ["'none'"],
      'require-trusted-types-for': ["'script'"],
      'trusted-types': ["'none'"],
    });
    expect(response.headers.get('x-content-type-options')).to.equal('nosniff');
    expect(response.headers.get('referrer-policy')).to.equal('no-referrer');
    expect(response.headers.get('set-cookie')).to.equal(null);
  });

  it('has no script or style of its own: one module script and one stylesheet from /console/assets', async () => {
    const page = (await request(app, 'GET', '/console')).text;
    const manifest = JSON.parse(await readFile(join(DIST, 'manifest.json'), 'utf8'));
    const scripts = [...page.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.map(([, attributes, content]) => [attributes, content])).to.deep.equal([
      [` type="module" src="/console/assets/${manifest.script}"`, ''],
    ]);
    expect(page).to.include(`<link rel="stylesheet" href="/console/assets/${manifest.style}">`);
    expect(page).not.to.match(/<style\b|\sstyle=|\son[a-z]+=/i);
  });

  it('serves every built file as it is committed, named by its content, cached a year, gzipped on request', async () => {
    const { files } = JSON.parse(await readFile(join(DIST, 'manifest.json'), 'utf8')) as { files: string[] };
    expect(files.some((name) => /^console\.[A-Z0-9]{8}\.js$/.test(name))).to.equal(true);
    for (const name of files) {
      const committed = await readFile(join(DIST, name));
      const plain = await rawGet(app, `/console/assets/${name}`, {});
      expect(plain.status).to.equal(200);
      expect(plain.headers['content-type']).to.equal(
        name.endsWith('.js') ? 'text/javascript; charset=utf-8' : 'text/css; charset=utf-8',
      );
      expect(plain.headers['cache-control']).to.equal('public, max-age=31536000, immutable');
      expect(plain.headers['content-encoding']).to.equal(undefined);
      expect(plain.bytes.equals(committed)).to.equal(true);
      const zipped = await rawGet(app, `/console/assets/${name}`, { 'accept-encoding': 'gzip' });
      expect(zipped.headers['content-encoding']).to.equal('gzip');
      expect(gunzipSync(zipped.bytes).equals(committed)).to.equal(true);
      const again = await rawGet(app, `/console/assets/${name}`, { 'if-none-match': String(plain.headers.etag) });
      expect(again.status).to.equal(304);
    }
  });

  it('answers a file it does not have with a 404 problem', async () => {
    for (const name of ['console.AAAAAAAA.js', 'manifest.json']) {
      const response = await request(app, 'GET', `/console/assets/${name}`);
      expect(response.status).to.equal(404);
      expect(response.body).to.include({ type: 'https://errors.finsynth.dev/not-found', status: 404 });
      checker.check('GET', '/console/assets/{file}', response);
    }
  });
});

describe('console/dist: the committed build', () => {
  it('is what `npm run console:build` makes from the sources, byte for byte', async function () {
    // esbuild bundles Preact, CodeMirror and uPlot in a few seconds on a shared machine.
    this.timeout(60_000);
    const fresh = await mkdtemp(join(tmpdir(), 'finsynth-console-'));
    try {
      await buildConsole(fresh);
      expect(await digestsOf(fresh), 'run `npm run console:build` and commit console/dist').to.deep.equal(
        await digestsOf(DIST),
      );
    } finally {
      await rm(fresh, { recursive: true, force: true });
    }
  });

  it('never writes HTML from a string: no innerHTML, outerHTML, insertAdjacentHTML or dangerouslySetInnerHTML', async () => {
    const sources = new URL('../../console/src/', import.meta.url);
    const files = (await readdir(sources, { recursive: true })).filter((name) => /\.tsx?$/.test(name));
    expect(files.length).to.be.greaterThan(10);
    for (const name of files) {
      const text = await readFile(new URL(name, sources), 'utf8');
      expect(text, name).not.to.match(/innerHTML|outerHTML|insertAdjacentHTML|dangerouslySetInnerHTML|document\.write/);
    }
  });
});
