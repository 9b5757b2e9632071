import { expect } from 'chai';
import { MAX_REPORTED_ERRORS, MAX_VALUES_CHECKED_IN_FULL } from '../../../core/bounded-validation.js';
import { MAX_YAML_BYTES } from '../../../core/configs/yaml-source.js';
import { MAX_CONFIG_BODY_BYTES } from '../../../api/routes/configs/config-input-schema.js';
import { DEFAULT_MAX_BODY_BYTES } from '../../../api/http/body.js';
import {
  openAccount,
  request,
  startTestApp,
  type TestAccount,
  type TestApp,
  type TestResponse,
} from '../../support/app.js';

const ERRORS = 'https://errors.finsynth.dev';
/** An answer listing at most MAX_REPORTED_ERRORS errors fits in this, whatever the body. */
const SMALL_ANSWER_BYTES = 64 * 1024;

const QUICK = { sector: 'cards', tables: [{ name: 'transactions', rows: 10 }] };
const CONFIG = { version: 1, sector: 'cards', tables: [{ name: 'transactions', rows: 10 }] };

/** `into` (an object's JSON) with unknown members `m0`, `m1`, … added until the text is as long as `bytes` allows. */
function withMembers(into: object, bytes: number): string {
  const head = JSON.stringify(into).slice(0, -1);
  const members: string[] = [];
  let length = head.length + 1;
  for (let index = 0; length + 12 < bytes; index += 1) {
    const member = `"m${index}":0`;
    members.push(member);
    length += member.length + 1;
  }
  return `${head}${head.length > 1 ? ',' : ''}${members.join(',')}}`;
}

/** `count` unknown members only. */
function members(into: object, count: number): Record<string, unknown> {
  return { ...into, ...Object.fromEntries(Array.from({ length: count }, (_, index) => [`m${index}`, 0])) };
}

/** A JSON array of as many `item`s as fit in `bytes`. */
function arrayOf(item: string, bytes: number): string {
  return `[${Array.from({ length: Math.floor(bytes / (item.length + 1)) - 1 }, () => item).join(',')}]`;
}

describe('hostile bodies at the size limits: answers as large as the errors they list, never the body', () => {
  let app: TestApp;
  let account: TestAccount;
  const post = (path: string, body: string, type = 'application/json') =>
    request(app, 'POST', path, { key: account.test, body, headers: { 'content-type': type } });

  before(async () => {
    app = await startTestApp();
    account = await openAccount(app);
  });
  after(() => app.close());

  /** A short answer, and the service still answering others. */
  async function expectSmall(response: TestResponse, status: number, slug?: string): Promise<void> {
    expect(response.status, response.text.slice(0, 300)).to.equal(status);
    if (slug) expect(response.body.type).to.equal(`${ERRORS}/${slug}`);
    expect(response.text.length).to.be.below(SMALL_ANSWER_BYTES);
    expect(response.text).not.to.contain('call stack');
    expect((await request(app, 'GET', '/healthz')).status).to.equal(200);
  }

  it('checks a quick request of 1 MiB of unknown members until its first error, and says so', async () => {
    const body = withMembers(QUICK, DEFAULT_MAX_BODY_BYTES);
    expect(body.length).to.be.within(DEFAULT_MAX_BODY_BYTES - 16, DEFAULT_MAX_BODY_BYTES);
    const response = await post('/v1/generate/quick', body);
    await expectSmall(response, 400, 'validation-failed');
    const column = body.indexOf('"m0"') + 1;
    expect(response.body.errors).to.deep.equal([
      { in: 'body', pointer: '/m0', message: 'must NOT have additional properties', line: 1, column },
    ]);
    expect(response.body.errors_truncated).to.equal(true);
    expect(response.body).not.to.have.property('errors_total');
    expect(response.body.detail).to.contain(
      `more than ${MAX_VALUES_CHECKED_IN_FULL} values is checked until its first error`,
    );
  });

  it('lists the first 100 errors of a request small enough to be checked in full, and how many there were', async () => {
    const count = MAX_VALUES_CHECKED_IN_FULL - 100;
    const response = await post('/v1/generate/quick', JSON.stringify(members(QUICK, count)));
    await expectSmall(response, 400, 'validation-failed');
    expect(response.body.errors).to.have.length(MAX_REPORTED_ERRORS);
    expect(response.body).to.include({ errors_truncated: true, errors_total: count });
    expect(response.body.errors.every((error: { line?: number }) => error.line === 1)).to.equal(true);
  });

  it('answers 1 MiB of empty tables with a short problem', async () => {
    const response = await post(
      '/v1/generate/quick',
      `{"sector":"cards","tables":${arrayOf('{}', DEFAULT_MAX_BODY_BYTES - 40)}}`,
    );
    await expectSmall(response, 400, 'validation-failed');
    expect(response.body.errors.length).to.be.within(1, MAX_REPORTED_ERRORS);
    expect(response.body.errors_truncated).to.equal(true);
  });

  it('answers 1 MiB of distinct scopes, whose uniqueness would be checked pair by pair, with a short problem', async () => {
    const scopes = Array.from({ length: 90_000 }, (_, index) => `s${index}`);
    const response = await post('/v1/keys', JSON.stringify({ scopes }));
    await expectSmall(response, 400, 'validation-failed');
    expect(response.body.errors.length).to.be.within(1, MAX_REPORTED_ERRORS);
  });

  it('answers 4 MiB of unknown members beside a config (validate, jobs) with a short problem', async () => {
    for (const path of ['/v1/configs/validate', '/v1/jobs']) {
      const response = await post(path, withMembers({}, MAX_CONFIG_BODY_BYTES));
      await expectSmall(response, 400, 'validation-failed');
      expect(response.body.errors.length, path).to.be.within(1, MAX_REPORTED_ERRORS);
      expect(response.body.errors_truncated, path).to.equal(true);
    }
  });

  it('validates a config of 4 MiB of empty tables with a short report', async () => {
    const response = await post(
      '/v1/configs/validate',
      `{"config":{"version":1,"sector":"cards","tables":${arrayOf('{}', MAX_CONFIG_BODY_BYTES - 80)}}}`,
    );
    await expectSmall(response, 200);
    expect(response.body.valid).to.equal(false);
    expect(response.body.errors.length).to.be.within(1, MAX_REPORTED_ERRORS);
    expect(response.body.errors_truncated).to.equal(true);
  });

  it('reports the first 100 issues of a config with 3,000 unknown members, each placed, and their number', async () => {
    const response = await post('/v1/configs/validate', JSON.stringify({ config: members(CONFIG, 3_000) }));
    await expectSmall(response, 200);
    expect(response.body.valid).to.equal(false);
    expect(response.body.errors).to.have.length(MAX_REPORTED_ERRORS);
    expect(response.body).to.include({ errors_truncated: true, errors_total: 3_000 });
    expect(response.body.errors[0]).to.deep.include({ pointer: '/m0', message: 'unknown member "m0"', line: 1 });
    expect(
      response.body.errors.every((issue: { line?: number; column?: number }) => issue.line === 1 && issue.column! > 1),
    ).to.equal(true);
  });

  it('refuses a job whose config has 4 MiB of unknown members with a short invalid-config', async () => {
    const response = await post('/v1/jobs', `{"config":${withMembers(CONFIG, MAX_CONFIG_BODY_BYTES - 20)}}`);
    await expectSmall(response, 400, 'invalid-config');
    expect(response.body.errors.length).to.be.within(1, MAX_REPORTED_ERRORS);
    expect(response.body.errors_truncated).to.equal(true);
  });

  it('refuses a compose base of 1 MiB of unknown members with a short invalid-overlay', async () => {
    const response = await post(
      '/v1/configs/compose',
      `{"base":${withMembers({ sector: 'cards' }, DEFAULT_MAX_BODY_BYTES - 20)}}`,
    );
    await expectSmall(response, 400, 'invalid-overlay');
    expect(response.body.errors.length).to.be.within(1, MAX_REPORTED_ERRORS);
    expect(response.body.errors_truncated).to.equal(true);
  });

  it('validates a YAML config of 1 MiB of unknown members with a short report', async () => {
    const lines = ['version: 1', 'sector: cards', 'tables:', '  - name: transactions', '    rows: 10'];
    let bytes = lines.join('\n').length;
    for (let index = 0; bytes + 20 < MAX_YAML_BYTES; index += 1) {
      lines.push(`m${index}: 0`);
      bytes += lines.at(-1)!.length + 1;
    }
    const response = await post('/v1/configs/validate', `${lines.join('\n')}\n`, 'application/yaml');
    await expectSmall(response, 200);
    expect(response.body.valid).to.equal(false);
    expect(response.body.errors.length).to.be.within(1, MAX_REPORTED_ERRORS);
    expect(response.body.errors[0]).to.deep.include({ pointer: '/m0', line: 6, column: 1 });
    expect(response.body.errors_truncated).to.equal(true);
  });

  it('lists the first 100 of 1 MiB of refused YAML tags, and how many there were', async () => {
    const count = Math.floor((MAX_YAML_BYTES - 20) / 'k000000: !x 1\n'.length);
    const tagged = (index: number) => `k${String(index).padStart(6, '0')}: !x 1`;
    const text = `${Array.from({ length: count }, (_, index) => tagged(index)).join('\n')}\n`;
    expect(text.length).to.be.below(MAX_YAML_BYTES);
    const response = await post('/v1/configs/validate', text, 'application/yaml');
    await expectSmall(response, 400, 'invalid-yaml');
    expect(response.body.errors).to.have.length(MAX_REPORTED_ERRORS);
    expect(response.body).to.include({ errors_truncated: true, errors_total: count });
    expect(response.body.errors[1]).to.deep.include({ line: 2, column: 10 });
  });

  it('refuses YAML that repeats one key 50,000 times, each repeat found in one pass', async () => {
    const text = `${Array.from({ length: 50_000 }, () => 'a: 1').join('\n')}\n`;
    const response = await post('/v1/configs/validate', text, 'application/yaml');
    await expectSmall(response, 400, 'invalid-yaml');
    expect(response.body.detail).to.equal('the YAML is not well formed: Map keys must be unique');
    expect(response.body).to.include({ errors_truncated: true, errors_total: 49_999 });
    expect(response.body.errors[0]).to.deep.include({ line: 2, column: 1 });
  });
});
