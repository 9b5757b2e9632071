import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { get } from 'node:http';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { request, startTestApp, type TestApp } from '../../support/app.js';
import { useBrowser } from '../../support/browser.js';
import type { JsonBody } from '../../support/json-body.js';
import { ResponseChecker } from '../../support/openapi.js';

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

const shippedBundle = () =>
  readFile(join(dirname(createRequire(import.meta.url).resolve('@scalar/api-reference')), 'browser', 'standalone.js'));

describe('GET /docs: the API reference page', () => {
  let app: TestApp;
  let document: JsonBody;
  let checker: ResponseChecker;

  before(async () => {
    app = await startTestApp();
    document = (await request(app, 'GET', '/v1/openapi.json')).body;
    checker = new ResponseChecker(document);
  });
  after(() => app.close());

  describe('over HTTP', () => {
    it('serves the page to anyone, with a policy that lets it load from this origin only', async () => {
      const response = await request(app, 'GET', '/docs');
      expect(response.status).to.equal(200);
      expect(response.headers.get('content-type')).to.equal('text/html; charset=utf-8');
      checker.check('GET', '/docs', response);
      const policy = Object.fromEntries(
        response.headers
          .get('content-security-policy')!
          .split(';')
          .map((directive) => directive.trim().split(/\s+/))
          .map(([name, ...sources]) => [name, sources]),
      );
      expect(policy).to.deep.equal({
        'default-src': ["'none'"],
        'script-src': ["'self'"],
        'style-src': ["'self'", "'unsafe-inline'"],
        'img-src': ["'self'", 'data:'],
        'font-src': ["'self'"],
        'connect-src': ["'self'"],
        'base-uri': ["'none'"],
        'form-action': ["'none'"],
        'frame-ancestors': ["'none'"],
      });
      expect(response.headers.get('x-content-type-options')).to.equal('nosniff');
    });

    it('has no script of its own: the renderer from this origin, configured by data attributes, reads the document', async () => {
      const page = (await request(app, 'GET', '/docs')).text;
      const scripts = [...page.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
      expect(scripts).to.have.length(2);
      const [configuration, renderer] = scripts;
      expect(configuration![1]).to.include('type="application/json"').and.include('data-url="/v1/openapi.json"');
      expect(configuration![2]).to.equal('');
      expect(renderer![1]).to.match(/^ src="\/docs\/assets\/api-reference\.[0-9a-f]{16}\.js"$/);
      expect(renderer![2]).to.equal('');
      const options = JSON.parse(/data-configuration="([^"]*)"/.exec(page)![1]!.replace(/&quot;/g, '"'));
      expect(options).to.include({ withDefaultFonts: false, telemetry: false, hiddenClients: true });
      expect(options).not.to.have.property('proxyUrl');
    });

    it('serves the renderer as its package ships it, named by its content and cached for a year, gzipped on request', async () => {
      const page = (await request(app, 'GET', '/docs')).text;
      const path = /src="(\/docs\/assets\/[^"]+)"/.exec(page)![1]!;
      const shipped = await shippedBundle();

      const plain = await rawGet(app, path, {});
      expect(plain.status).to.equal(200);
      expect(plain.headers['content-type']).to.equal('text/javascript; charset=utf-8');
      expect(plain.headers['content-encoding']).to.equal(undefined);
      expect(plain.headers['cache-control']).to.equal('public, max-age=31536000, immutable');
      expect(plain.bytes.equals(shipped)).to.equal(true);
      const digest = createHash('sha256').update(shipped).digest('hex');
      expect(plain.headers.etag).to.equal(`"${digest}"`);
      expect(path).to.equal(`/docs/assets/api-reference.${digest.slice(0, 16)}.js`);

      const identity = await rawGet(app, path, { 'accept-encoding': 'identity' });
      expect(identity.headers['content-encoding']).to.equal(undefined);
      expect(identity.bytes.equals(shipped)).to.equal(true);

      const zipped = await rawGet(app, path, { 'accept-encoding': 'gzip, deflate' });
      expect(zipped.headers['content-encoding']).to.equal('gzip');
      expect(zipped.headers.vary).to.include('Accept-Encoding');
      expect(zipped.bytes.length).to.be.below(shipped.length / 2);
      expect(gunzipSync(zipped.bytes).equals(shipped)).to.equal(true);

      const again = await rawGet(app, path, { 'if-none-match': `"${digest}"` });
      expect(again.status).to.equal(304);
      expect(again.bytes.length).to.equal(0);
    });

    it('answers a file it does not have with a 404 problem', async () => {
      const response = await request(app, 'GET', '/docs/assets/api-reference.0000000000000000.js');
      expect(response.status).to.equal(404);
      expect(response.body).to.include({ type: 'https://errors.finsynth.dev/not-found', status: 404 });
      checker.check('GET', '/docs/assets/{file}', response);
    });
  });

  describe('in a browser', () => {
    const browser = useBrowser();

    it('renders every operation, createJob with its scope, problems and samples in curl and @finsynth/client, from this origin alone', async function () {
      // Chromium's start and the first parse of a 5 MB bundle and a 1 MB document take seconds on a shared machine.
      this.timeout(120_000);
      const summaries = Object.values(document.paths as Record<string, Record<string, { summary: string }>>).flatMap(
        (operations) => Object.values(operations).map((operation) => operation.summary),
      );
      await browser.visit(app.url, 'docs-create-job', async (page) => {
        await page.goto(`${app.url}/docs`);
        for (const summary of summaries) await page.getByText(summary, { exact: true }).first().waitFor();

        await page.getByText('Create a job', { exact: true }).first().click();
        const heading = page.getByRole('heading', { name: 'Create a job' });
        await heading.waitFor();
        const operation = page.locator('section', { has: heading }).last();
        await operation.getByText('createJob', { exact: true }).waitFor();
        await operation.getByText('Scope: jobs:write.').waitFor();
        await operation.getByRole('button', { name: /^402\s+insufficient-credits/ }).waitFor();

        const curl = operation.getByRole('group', { name: 'Code sample: curl' });
        await curl.filter({ hasText: 'curl -X POST "${FINSYNTH_URL:-http://localhost:3000}/v1/jobs"' }).waitFor();
        await curl.filter({ hasText: 'Authorization: Bearer $FINSYNTH_KEY' }).waitFor();

        await operation.getByRole('button', { name: 'curl' }).click();
        await page.getByRole('option', { name: '@finsynth/client' }).click();
        const client = operation.getByRole('group', { name: 'Code sample: @finsynth/client' });
        await client.filter({ hasText: "import { Finsynth } from '@finsynth/client';" }).waitFor();
        await client.filter({ hasText: 'const job = await finsynth.jobs.create({' }).waitFor();
      });
    });
  });
});
