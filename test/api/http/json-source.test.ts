import { expect } from 'chai';
import { jsonSourceMap, jsonSyntaxError, tooDeepAt } from '../../../api/http/json-source.js';
import { openAccount, request, startTestApp, type TestAccount, type TestApp } from '../../support/app.js';

const ERRORS = 'https://errors.finsynth.dev';

describe('positions in JSON texts', () => {
  describe('jsonSyntaxError', () => {
    it('says what is wrong, on which line and column, and in which member', () => {
      expect(jsonSyntaxError('{\n  "config": {\n    "tables": [{ "name": "x", "rows": }]\n  }\n}')).to.deep.equal({
        pointer: '/config/tables/0/rows',
        message: 'a value is expected',
        line: 3,
        column: 39,
      });
      expect(jsonSyntaxError('{"a": 1,}')).to.deep.include({ pointer: '', line: 1, column: 9 });
      expect(jsonSyntaxError('{"a": 1,}')!.message).to.contain('trailing commas');
      expect(jsonSyntaxError('{"a" 1}')).to.deep.include({
        pointer: '/a',
        message: 'a colon is expected after the member name',
        column: 6,
      });
      expect(jsonSyntaxError('{"a": [1, 2')).to.deep.include({ pointer: '/a/1', line: 1, column: 12 });
      expect(jsonSyntaxError('{"a": 1} x')).to.deep.include({ line: 1, column: 10 });
      expect(jsonSyntaxError('{"a": "\u0001"}')!.message).to.equal('a control character in a string must be escaped');
      expect(jsonSyntaxError('{"a": 1 /* no */}')!.message).to.equal('JSON has no comments');
      expect(jsonSyntaxError('')).to.deep.include({ line: 1, column: 1 });
    });

    it('finds no error where JSON.parse finds none', () => {
      for (const text of ['{}', '[1, 2.5e3, "\\u00e9", true, null]', ' {"a": {"b": []}}\n'])
        expect(jsonSyntaxError(text), text).to.equal(undefined);
    });

    it('answers a text too deep to walk without a position, rather than overflowing', () => {
      expect(jsonSyntaxError('['.repeat(200_000))).to.deep.equal({
        pointer: '',
        message: 'the JSON nests too deep to be read',
      });
    });
  });

  describe('tooDeepAt', () => {
    it('finds the bracket that opens the level too many, with its pointer, line and column', () => {
      expect(tooDeepAt('{"a": [1, {"b": [[]]}]}', 5)).to.equal(undefined);
      expect(tooDeepAt('{"a": [1, {"b": [[]]}]}', 4)).to.deep.equal({ pointer: '/a/1/b/0', line: 1, column: 18 });
      expect(tooDeepAt('{"a": [1, {"b": [[]]}]}', 3)).to.deep.equal({ pointer: '/a/1/b', line: 1, column: 17 });
      expect(tooDeepAt('[\n  [],\n  [\n    [0]]]', 2)).to.deep.equal({ pointer: '/1/0', line: 4, column: 5 });
    });

    it('reads brackets, quotes and escapes inside strings and member names as text', () => {
      const text = '{"[[[": "]]]{{{", "x\\"[": ["\\\\", {"y": []}]}';
      expect(JSON.parse(text)).to.be.an('object');
      expect(tooDeepAt(text, 4)).to.equal(undefined);
      expect(tooDeepAt(text, 3)).to.deep.include({ pointer: '/x"[/1/y' });
      expect(tooDeepAt(text, 2)).to.deep.include({ pointer: '/x"[/1' });
    });

    it('reads a malformed text as far as it goes', () => {
      expect(tooDeepAt('{"a": [[[ , }', 3)).to.deep.equal({ pointer: '/a/0/0', line: 1, column: 9 });
      expect(tooDeepAt('"unclosed [[[[', 1)).to.equal(undefined);
    });
  });

  describe('jsonSourceMap', () => {
    const text =
      '{\n  "name": "x",\n  "tables": [\n    {"name": "a"},\n    {"name": "b", "rows": 5}\n  ],\n  "name": "last"\n}';
    const source = jsonSourceMap(text);

    it('locates values and member names by JSON pointer', () => {
      expect(source.locate('')).to.deep.equal({ line: 1, column: 1 });
      expect(source.locate('/tables/1/rows')).to.deep.equal({ line: 5, column: 27 });
      expect(source.locate('/tables/1/rows', true)).to.deep.equal({ line: 5, column: 19 });
      expect(source.locate('/tables/0')).to.deep.equal({ line: 4, column: 5 });
    });

    it('locates the member JSON.parse keeps when a name is given twice', () => {
      expect(source.locate('/name')).to.deep.equal({ line: 7, column: 11 });
    });

    it('locates nothing that is not in the text', () => {
      expect(source.locate('/tables/2')).to.equal(undefined);
      expect(source.locate('/tables/x')).to.equal(undefined);
      expect(source.locate('/name/0')).to.equal(undefined);
      expect(source.locate('/missing')).to.equal(undefined);
    });
  });
});

describe('JSON body errors over HTTP: line and column', () => {
  let app: TestApp;
  let account: TestAccount;
  const post = (path: string, body: string) =>
    request(app, 'POST', path, { key: account.live, body, headers: { 'content-type': 'application/json' } });

  before(async () => {
    app = await startTestApp();
    account = await openAccount(app);
  });
  after(() => app.close());

  it('places a syntax error of a JSON body', async () => {
    const response = await post('/v1/keys', '{\n  "name": "ci",\n  "scopes": ["generate",]\n}');
    expect(response.status).to.equal(400);
    expect(response.body.type).to.equal(`${ERRORS}/malformed-json`);
    expect(response.body.detail).to.equal('the body is not valid JSON: a value is expected (line 3, column 25)');
    expect(response.body.errors).to.deep.equal([
      { in: 'body', pointer: '/scopes/1', message: 'a value is expected', line: 3, column: 25 },
    ]);
  });

  it('refuses a deep malformed body as nested too deep, at the bracket that opens the level too many, and goes on serving', async () => {
    const response = await post('/v1/keys', `{"scopes":\n${'['.repeat(200_000)}`);
    expect(response.status).to.equal(400);
    expect(response.body.type).to.equal(`${ERRORS}/nesting-too-deep`);
    expect(response.body.detail).to.equal('the body is nested deeper than 64 levels (line 2, column 64)');
    expect(response.body.errors).to.deep.equal([
      {
        in: 'body',
        pointer: `/scopes${'/0'.repeat(63)}`,
        message: 'nested deeper than 64 levels',
        line: 2,
        column: 64,
      },
    ]);
    expect((await request(app, 'GET', '/healthz')).status).to.equal(200);
  });

  it('places each failing field of a JSON body: the value, the name of an unknown member, the object that lacks one', async () => {
    const response = await post('/v1/keys', '{\n  "name": 7,\n  "scopes": ["generate", "root"],\n  "colour": "red"\n}');
    expect(response.status).to.equal(400);
    expect(response.body.type).to.equal(`${ERRORS}/validation-failed`);
    expect(response.body.errors).to.deep.include.members([
      { in: 'body', pointer: '/name', message: 'must be string', line: 2, column: 11 },
      { in: 'body', pointer: '/colour', message: 'must NOT have additional properties', line: 4, column: 3 },
    ]);
    expect(response.body.errors.find((error: { pointer: string }) => error.pointer === '/scopes/1')).to.include({
      line: 3,
      column: 26,
    });
    expect(response.body.detail).to.contain('/name (line 2, column 11) must be string');
    const missing = await post('/v1/generate/quick', '{\n  "tables": [{"name": "cards", "rows": 1}]\n}');
    expect(missing.body.errors).to.deep.include({
      in: 'body',
      pointer: '/sector',
      message: "must have required property 'sector'",
      line: 1,
      column: 1,
    });
  });

  it('places nothing in a query, which has no text to point into', async () => {
    const response = await request(app, 'GET', '/v1/keys?limit=0', { key: account.live });
    expect(response.body.errors).to.deep.equal([{ in: 'query', pointer: '/limit', message: 'must be >= 1' }]);
  });
});
