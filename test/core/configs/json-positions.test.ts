import { expect } from 'chai';
import { openAccount, request, startTestApp, type TestAccount, type TestApp } from '../../support/app.js';

const ERRORS = 'https://errors.finsynth.dev';

/**
 * A config given inline in a JSON body: its issues keep pointers into the config, and say where they
 * are in the text of the body (line and column), as they do for YAML.
 */
describe('config issues in JSON bodies: line and column over HTTP', () => {
  let app: TestApp;
  let account: TestAccount;
  const post = (path: string, body: string) =>
    request(app, 'POST', path, { key: account.test, body, headers: { 'content-type': 'application/json' } });
  const BAD_CONFIG = `{
  "config": {
    "version": 1,
    "sector": "cards",
    "tables": [
      { "name": "cards", "rows": 0 }
    ]
  }
}`;

  before(async () => {
    app = await startTestApp();
    account = await openAccount(app);
  });
  after(() => app.close());

  it('validate: each issue of an inline config has its pointer in the config and its place in the body', async () => {
    const response = await post('/v1/configs/validate', BAD_CONFIG);
    expect(response.status).to.equal(200);
    expect(response.body.valid).to.equal(false);
    expect(response.body.errors).to.deep.equal([
      { pointer: '/tables/0/rows', message: 'must be >= 1', line: 6, column: 34 },
    ]);
  });

  it('estimate and save: the invalid-config problem places its issues', async () => {
    const estimate = await post('/v1/configs/estimate', BAD_CONFIG);
    expect(estimate.status).to.equal(400);
    expect(estimate.body.type).to.equal(`${ERRORS}/invalid-config`);
    expect(estimate.body.detail).to.equal('the config is invalid: must be >= 1 (line 6, column 34)');
    const saved = await post('/v1/configs', BAD_CONFIG.replace('{\n', '{\n  "name": "broken",\n'));
    expect(saved.status).to.equal(400);
    expect(saved.body.errors).to.deep.equal([
      { pointer: '/tables/0/rows', message: 'must be >= 1', line: 7, column: 34 },
    ]);
  });

  it('saving an overlay: a table without its name is placed at the table', async () => {
    const response = await post(
      '/v1/overlays',
      '{\n  "name": "more",\n  "overlay": {\n    "tables": [\n      { "rows": 5 }\n    ]\n  }\n}',
    );
    expect(response.status).to.equal(400);
    expect(response.body.type).to.equal(`${ERRORS}/invalid-overlay`);
    expect(response.body.errors).to.deep.equal([
      { pointer: '/tables/0/name', message: 'the member "name" is required', line: 5, column: 7 },
    ]);
  });

  it('compose: an inline base and inline overlays are each placed in the body', async () => {
    const body = '{\n  "base": { "version": "one" },\n  "overlays": [\n    { "seed": 1 },\n    { "sector": 7 }\n  ]\n}';
    const base = await post('/v1/configs/compose', body);
    expect(base.status).to.equal(400);
    expect(base.body.errors[0]).to.deep.include({ pointer: '/version', line: 2, column: 24 });
    const overlay = await post('/v1/configs/compose', body.replace('"one"', '1'));
    expect(overlay.body.detail).to.match(/^overlays\[1\] is invalid/);
    expect(overlay.body.errors[0]).to.deep.include({ pointer: '/sector', line: 5, column: 17 });
  });

  it('quick generation: a table the pack does not have is placed in the request', async () => {
    const response = await post(
      '/v1/generate/quick',
      '{\n  "sector": "cards",\n  "tables": [\n    { "name": "unicorns", "rows": 5 }\n  ],\n' +
        '  "options": { "dragons": {} }\n}',
    );
    expect(response.status).to.equal(400);
    expect(response.body.errors[0]).to.deep.include({ pointer: '/options/dragons', line: 6, column: 16 });
    const unknown = await post(
      '/v1/generate/quick',
      '{\n  "sector": "cards",\n  "tables": [\n    { "name": "unicorns", "rows": 5 }\n  ]\n}',
    );
    expect(unknown.status).to.equal(400);
    expect(unknown.body.errors[0]).to.deep.include({ pointer: '/tables/0/name', line: 4, column: 15 });
  });
});
