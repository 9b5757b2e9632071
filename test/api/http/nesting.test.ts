import { expect } from 'chai';
import { MAX_JSON_DEPTH } from '../../../api/http/body.js';
import { MAX_DEPTH } from '../../../core/configs/yaml-source.js';
import {
  openAccount,
  request,
  startTestApp,
  type TestAccount,
  type TestApp,
  type TestResponse,
} from '../../support/app.js';

const ERRORS = 'https://errors.finsynth.dev';

/** Every operation that takes a document, and the JSON body that carries one at `{{doc}}`. */
const JSON_DOCUMENTS: { path: string; body: string }[] = [
  { path: '/v1/configs/validate', body: '{"config": {{doc}}}' },
  { path: '/v1/configs/estimate', body: '{"config": {{doc}}}' },
  { path: '/v1/configs', body: '{"name": "deep", "config": {{doc}}}' },
  { path: '/v1/overlays', body: '{"name": "deep", "overlay": {{doc}}}' },
  { path: '/v1/configs/compose', body: '{"base": {{doc}}}' },
  { path: '/v1/jobs', body: '{"config": {{doc}}}' },
  {
    path: '/v1/generate/quick',
    body: '{"sector": "cards", "tables": [{"name": "transactions", "rows": 1}], "options": {"transactions": {{doc}}}}',
  },
];

/** Every operation that takes a YAML document: as the body, or as a string member of a JSON body. */
const YAML_DOCUMENTS: { path: string; type: string; body: (yaml: string) => string }[] = [
  { path: '/v1/configs/raw', type: 'application/yaml', body: (yaml) => yaml },
  { path: '/v1/configs/validate', type: 'application/yaml', body: (yaml) => yaml },
  { path: '/v1/configs/estimate', type: 'text/yaml', body: (yaml) => yaml },
  { path: '/v1/configs/validate', type: 'application/json', body: (yaml) => JSON.stringify({ config_yaml: yaml }) },
  { path: '/v1/configs/estimate', type: 'application/json', body: (yaml) => JSON.stringify({ config_yaml: yaml }) },
  {
    path: '/v1/configs',
    type: 'application/json',
    body: (yaml) => JSON.stringify({ name: 'deep', config_yaml: yaml }),
  },
  {
    path: '/v1/overlays',
    type: 'application/json',
    body: (yaml) => JSON.stringify({ name: 'deep', overlay_yaml: yaml }),
  },
  { path: '/v1/jobs', type: 'application/json', body: (yaml) => JSON.stringify({ config_yaml: yaml }) },
];

/** The nestings a fuzzer or an attacker sends: just over the limit, thousands deep, a megabyte deep, and unclosed. */
const JSON_NESTINGS = [
  {
    name: `${MAX_JSON_DEPTH} levels of arrays`,
    doc: `{"a": ${'['.repeat(MAX_JSON_DEPTH)}${']'.repeat(MAX_JSON_DEPTH)}}`,
  },
  { name: '5,000 levels of objects', doc: `${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}` },
  { name: '400,000 levels of arrays', doc: `${'['.repeat(400_000)}${']'.repeat(400_000)}` },
  { name: '200,000 unclosed arrays', doc: '['.repeat(200_000) },
  // JSON.parse keeps the shallow last value; the text still holds the deep one.
  {
    name: '10,000 levels in the first of a member given twice',
    doc: `{"a": ${'['.repeat(10_000)}${']'.repeat(10_000)}, "a": 1}`,
  },
];

/** Line `level` of block lists nested under keys: `a:`, then `- a:` two spaces deeper at each level. */
const listUnderKey = (level: number) => `${' '.repeat(2 * level)}${level ? '- ' : ''}a:`;

const YAML_NESTINGS = [
  { name: `${MAX_DEPTH + 2} flow levels`, yaml: `a: ${'['.repeat(MAX_DEPTH + 2)}${']'.repeat(MAX_DEPTH + 2)}\n` },
  { name: '2,000 flow levels', yaml: `a: ${'['.repeat(2_000)}${']'.repeat(2_000)}\n` },
  { name: '200,000 unclosed flow maps', yaml: `a: ${'{b: '.repeat(200_000)}\n` },
  {
    name: '1,000 block levels',
    yaml: `${Array.from({ length: 1_000 }, (_, level) => `${' '.repeat(level)}a:`).join('\n')} 1\n`,
  },
  { name: '300,000 compact lists', yaml: `a:\n${'- '.repeat(300_000)}x\n` },
  {
    name: 'lists under keys, 200 levels',
    yaml: `${Array.from({ length: 200 }, (_, level) => listUnderKey(level)).join('\n')} 1\n`,
  },
];

describe('documents nested too deep, on every operation that takes one', () => {
  let app: TestApp;
  let account: TestAccount;

  before(async () => {
    app = await startTestApp();
    account = await openAccount(app);
  });
  after(() => app.close());

  /** The service goes on answering, and no answer says how the stack ended. */
  async function expectRefused(
    response: TestResponse,
    slug: string,
    what: string,
  ): Promise<{ line: number; column: number; message: string }> {
    expect(response.status, `${what}: ${response.text.slice(0, 300)}`).to.equal(400);
    expect(response.body.type, what).to.equal(`${ERRORS}/${slug}`);
    expect(response.text, what).not.to.match(/call stack|RangeError/i);
    const [error] = response.body.errors as { line: number; column: number; message: string }[];
    expect(error.line, what).to.be.a('number').and.to.be.at.least(1);
    expect(error.column, what).to.be.a('number').and.to.be.at.least(1);
    return error;
  }

  for (const { name, doc } of JSON_NESTINGS) {
    it(`answers JSON with ${name} with 400 nesting-too-deep at its line and column`, async () => {
      for (const { path, body } of JSON_DOCUMENTS) {
        const text = body.replace('{{doc}}', doc);
        const response = await request(app, 'POST', path, {
          key: account.test,
          body: text,
          headers: { 'content-type': 'application/json' },
        });
        const error = await expectRefused(response, 'nesting-too-deep', `${path} ${name}`);
        expect(response.body.detail).to.equal(
          `the body is nested deeper than ${MAX_JSON_DEPTH} levels (line ${error.line}, column ${error.column})`,
        );
        expect(error.message).to.equal(`nested deeper than ${MAX_JSON_DEPTH} levels`);
        expect(text[error.column - 1], 'the bracket that opens the level too many').to.be.oneOf(['[', '{']);
        expect(response.body.max_depth).to.equal(MAX_JSON_DEPTH);
      }
      expect((await request(app, 'GET', '/healthz')).status).to.equal(200);
    });
  }

  it(`takes JSON ${MAX_JSON_DEPTH} levels deep`, async () => {
    const doc = `{"a": ${'['.repeat(MAX_JSON_DEPTH - 2)}${']'.repeat(MAX_JSON_DEPTH - 2)}}`;
    const response = await request(app, 'POST', '/v1/configs/compose', {
      key: account.test,
      body: `{"base": ${doc}}`,
      headers: { 'content-type': 'application/json' },
    });
    // The body is read; the config's own rules then refuse the unknown member.
    expect(response.body.type).to.equal(`${ERRORS}/invalid-overlay`);
  });

  for (const { name, yaml } of YAML_NESTINGS) {
    it(`answers YAML with ${name} with 400 invalid-yaml, nested too deep, at its line and column`, async () => {
      for (const { path, type, body } of YAML_DOCUMENTS) {
        const response = await request(app, 'POST', path, {
          key: account.test,
          body: body(yaml),
          headers: { 'content-type': type },
        });
        const error = await expectRefused(response, 'invalid-yaml', `${path} (${type}) ${name}`);
        expect(error.message).to.equal(`nested deeper than ${MAX_DEPTH} levels`);
        expect(response.body.detail).to.equal(`nested deeper than ${MAX_DEPTH} levels`);
        const line = yaml.split('\n')[error.line - 1];
        expect(line, 'the line exists').to.be.a('string');
        expect(error.column).to.be.at.most(line!.length + 1);
      }
      expect((await request(app, 'GET', '/healthz')).status).to.equal(200);
    });
  }

  it(`takes YAML ${MAX_DEPTH} levels deep`, async () => {
    const yaml =
      'version: 1\nsector: cards\ntables:\n  - name: transactions\n    rows: 1\n' +
      `    options: { x: ${'['.repeat(MAX_DEPTH - 4)}${']'.repeat(MAX_DEPTH - 4)} }\n`;
    const response = await request(app, 'POST', '/v1/configs/validate', {
      key: account.test,
      body: yaml,
      headers: { 'content-type': 'application/yaml' },
    });
    expect(response.status).to.equal(200);
    expect(response.body.errors.map((issue: { pointer: string }) => issue.pointer)).to.deep.equal([
      '/tables/0/options/x',
    ]);
  });
});
