import { expect } from 'chai';
import { request, openAccount, startTestApp, type TestAccount, type TestApp } from '../support/app.js';
import type { JsonBody } from '../support/json-body.js';
import { ResponseChecker } from '../support/openapi.js';
import { routeGroups } from '../../api/app.js';
import { buildRouter } from '../../api/router.js';
import { allProblemTypes } from '../../core/problems.js';
import { STATUS_CODES } from 'node:http';

describe('the OpenAPI document', () => {
  let app: TestApp;
  let account: TestAccount;
  let document: JsonBody;

  before(async () => {
    app = await startTestApp();
    account = await openAccount(app);
    document = (await request(app, 'GET', '/v1/openapi.json')).body;
  });
  after(() => app.close());

  it('is OpenAPI 3.1 and has every route of the router, and nothing else', () => {
    expect(document.openapi).to.equal('3.1.0');
    const routed = new Set(
      buildRouter(routeGroups).stack.flatMap((layer) =>
        layer.methods.filter((method) => method !== 'HEAD').map((method) => `${method} ${String(layer.path)}`),
      ),
    );
    const documented = new Set(
      Object.entries(document.paths as Record<string, Record<string, unknown>>).flatMap(([path, operations]) =>
        Object.keys(operations).map((method) => `${method.toUpperCase()} ${path.replace(/\{([^}]+)\}/g, ':$1')}`),
      ),
    );
    expect([...documented].sort()).to.deep.equal([...routed].sort());
  });

  it('gives every operation a unique id, a tag, responses, its problems, and every POST the Idempotency-Key header', () => {
    const ids = new Set<string>();
    const tags = new Set(document.tags.map((tag: { name: string }) => tag.name));
    for (const operations of Object.values(document.paths as Record<string, Record<string, JsonBody>>)) {
      for (const operation of Object.values(operations)) {
        expect(ids.has(operation.operationId), operation.operationId).to.equal(false);
        ids.add(operation.operationId);
        expect(tags.has(operation.tags[0]), operation.operationId).to.equal(true);
        expect(operation.responses['500']['x-problem-slugs']).to.include('internal-error');
        if (operation.security.length > 0)
          expect(operation.responses['401']['x-problem-slugs']).to.include('unauthorized');
        const takesIdempotencyKey = (operation.parameters ?? []).some(
          (parameter: { name: string; in: string }) =>
            parameter.name === 'Idempotency-Key' && parameter.in === 'header',
        );
        expect(takesIdempotencyKey, operation.operationId).to.equal(
          operation.security.length > 0 && operations.post === operation,
        );
      }
    }
  });

  it('lists every problem slug with its type URI', () => {
    const listed = document['x-problem-types'].map((type: { slug: string }) => type.slug);
    expect(listed).to.include.members(allProblemTypes().map((type) => type.slug));
    for (const type of document['x-problem-types'])
      expect(type.type).to.equal(`https://errors.finsynth.dev/${type.slug}`);
  });

  it("gives every problem the title of its status, as the interface's status table does (7.2)", () => {
    // The table's titles where it has the status; elsewhere the status's reason phrase (RFC 9110's names).
    const byStatus: Record<number, string> = {
      400: 'Bad Request',
      401: 'Unauthorized',
      403: 'Forbidden',
      404: 'Not Found',
      429: 'Too Many Requests',
      500: 'Internal Server Error',
    };
    const rfc9110: Record<number, string> = { 413: 'Content Too Large', 422: 'Unprocessable Content' };
    const expected = (slug: string, status: number) =>
      slug === 'insufficient-credits'
        ? ['Insufficient Credits']
        : [byStatus[status] ?? STATUS_CODES[status], rfc9110[status]].filter(Boolean);
    const off = allProblemTypes().filter((type) => !expected(type.slug, type.status).includes(type.title));
    expect(off.map((type) => `${type.slug} (${type.status}): "${type.title}"`)).to.deep.equal([]);
  });

  it('has the groups of the interface as tags', () => {
    const tags = document.tags.map((tag: { name: string }) => tag.name);
    expect(tags).to.include.members([
      'Generation',
      'Jobs',
      'Catalog',
      'Configuration',
      'Usage',
      'Billing',
      'Keys',
      'Audit',
    ]);
  });

  it('describes the real responses of the keys and service operations, problems included', async () => {
    const checker = new ResponseChecker(document);
    const exchanges: [string, string, string, Parameters<typeof request>[3]][] = [
      ['GET', '/healthz', '/healthz', {}],
      ['GET', '/readyz', '/readyz', {}],
      ['GET', '/metrics', '/metrics', {}],
      ['GET', '/v1/openapi.json', '/v1/openapi.json', {}],
      ['POST', '/v1/keys', '/v1/keys', { key: account.live, body: { name: 'documented' } }],
      ['POST', '/v1/keys', '/v1/keys', { key: account.live, body: { scopes: [] } }],
      [
        'POST',
        '/v1/keys',
        '/v1/keys',
        { key: account.live, body: '{', headers: { 'content-type': 'application/json' } },
      ],
      ['POST', '/v1/keys', '/v1/keys', { key: account.live, body: 'name', headers: { 'content-type': 'text/plain' } }],
      ['GET', '/v1/keys', '/v1/keys', { key: account.live }],
      ['GET', '/v1/keys', '/v1/keys', {}],
      ['GET', '/v1/keys?limit=1', '/v1/keys', { key: account.test }],
      ['DELETE', '/v1/keys/key_missing', '/v1/keys/{id}', { key: account.live }],
    ];
    for (const [method, url, template, options] of exchanges) {
      checker.check(method, template, await request(app, method, url, options));
    }
    const issued = await request(app, 'POST', '/v1/keys', { key: account.live, body: { scopes: ['keys:read'] } });
    checker.check('POST', '/v1/keys', issued);
    checker.check('POST', '/v1/keys', await request(app, 'POST', '/v1/keys', { key: issued.body.secret, body: {} }));
    checker.check(
      'DELETE',
      '/v1/keys/{id}',
      await request(app, 'DELETE', `/v1/keys/${issued.body.id}`, { key: account.live }),
    );
  });

  it('describes the real responses of every GET operation that needs no parameter, in both modes', async () => {
    const checker = new ResponseChecker(document);
    const operations = Object.entries(document.paths as Record<string, Record<string, JsonBody>>).filter(
      ([path, operations]) =>
        !path.includes('{') &&
        operations.get &&
        !(operations.get.parameters ?? []).some((parameter: { required: boolean }) => parameter.required),
    );
    expect(operations.length).to.be.greaterThan(10);
    for (const [path] of operations) {
      for (const key of [account.live, account.test]) {
        const response = await request(app, 'GET', path, { key });
        // Live money (billing, the audit) is refused to test keys, as the operation documents.
        const liveOnly =
          key === account.test && (path.startsWith('/v1/billing/') || path.startsWith('/v1/audit/credits'));
        if (liveOnly) expect(response.body.type, path).to.equal('https://errors.finsynth.dev/live-key-required');
        else expect(response.status, `GET ${path}: ${response.text.slice(0, 300)}`).to.be.below(400);
        checker.check('GET', path, response);
      }
    }
  });

  it('documents the 400 that every operation answers to a query parameter it does not take', async () => {
    const checker = new ResponseChecker(document);
    const operations = Object.entries(document.paths as Record<string, Record<string, JsonBody>>).filter(
      ([path, operations]) => !path.includes('{') && operations.get,
    );
    for (const [path] of operations) {
      const response = await request(app, 'GET', `${path}?colour=red`, { key: account.test });
      expect(response.status, path).to.equal(400);
      expect(response.body.type, path).to.equal('https://errors.finsynth.dev/validation-failed');
      checker.check('GET', path, response);
    }
  });

  it('publishes the members the interface fixes for insufficient-credits, and the real 402 matches them', async () => {
    expect(document.components.schemas.Problem.properties).to.deep.include({
      credits_required: {
        type: 'integer',
        minimum: 0,
        description: '`insufficient-credits`: the credits the request needs.',
      },
      credits_available: {
        type: 'integer',
        minimum: 0,
        description: '`insufficient-credits`: the credits remaining on the account.',
      },
    });
    const broke = await openAccount(app, { credits: 0 });
    const response = await request(app, 'POST', '/v1/generate/quick', {
      key: broke.live,
      body: { sector: 'cards', tables: [{ name: 'cardholders', rows: 10 }] },
    });
    expect(response.status).to.equal(402);
    expect(response.body).to.include({ title: 'Insufficient Credits', credits_available: 0 });
    new ResponseChecker(document).check('POST', '/v1/generate/quick', response);
  });
});
